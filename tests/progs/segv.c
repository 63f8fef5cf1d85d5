// SPDX-License-Identifier: GPL-2.0
/* segv: runs a little, then dies of SIGSEGV (a real invalid access, not raise()). */
#include <time.h>

int main(void)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	volatile int *volatile bad = (int *)0;

	nanosleep(&nap, NULL);
	return *bad;
}
