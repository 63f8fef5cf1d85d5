/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the cachewalk workload and migtrace: the unit function's name and
 * the meaning of its tag argument.  migtrace puts a uprobe and a uretprobe on the function;
 * its 2nd argument says what role the unit plays, its 3rd the age the experiment aimed at.
 */
#ifndef MIGTRACE_CACHEWALK_H
#define MIGTRACE_CACHEWALK_H

#define CACHEWALK_UNIT_FUNC "cachewalk_unit"

enum cachewalk_tag {
	CW_TAG_NATURAL = 0,	/* natural mode: the scheduler decides */
	CW_TAG_WARM = 1,	/* controlled: warming the cache on the source CPU */
	CW_TAG_BASELINE = 2,	/* controlled: back-to-back warm unit, the baseline */
	CW_TAG_MIGRATED = 3,	/* controlled: first unit after a move to the other CPU */
	CW_TAG_STAYED = 4,	/* controlled: first unit after a wake on the same CPU */
};

#endif
