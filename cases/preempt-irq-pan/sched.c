/*
 * One CPU's scheduler, the boot task and a kernel worker, around 19c95f261c65:
 * the worker is interrupted before the CPU features are enabled; boot enables
 * PAN and sets the "capabilities ready" key; the worker then reads a user page.
 */
#include <stdbool.h>
#include <stddef.h>

/* arm64 folds need_resched, inverted, into bit 32 of the 64-bit preempt count (asm/preempt.h). */
#define PREEMPT_NEED_RESCHED	(1UL << 32)
#define USER_ADDR		0x400000UL
#define SVC_TICK		"0"	/* taken as the timer interrupt */
#define SVC_KERNEL_LOAD		"1"	/* a kernel load through the harness's MMU model */

struct cpu_context {
	unsigned long x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, fp, sp, pc;
};

struct task {
	unsigned long preempt_count;	/* TSK_TI_PREEMPT in entry.S */
	struct cpu_context ctx;		/* THREAD_CPU_CONTEXT */
	bool runnable;
};

_Static_assert(offsetof(struct task, preempt_count) == 0, "TSK_TI_PREEMPT");
_Static_assert(offsetof(struct task, ctx) == 8, "THREAD_CPU_CONTEXT");

void cpu_switch_to(struct task *prev, struct task *next);
void cpu_enable_pan(void);

static struct task init_task, worker_task;
struct task *current = &init_task;
unsigned long harness_return;		/* where the run ends (the boot entry's x30) */
static bool arm64_const_caps_ready;	/* the static key of cpufeature.c */
static bool boot_done;
/* Instrumentation for the judge: preemptions from IRQ before the capabilities were ready. */
unsigned int early_irq_preemptions;
static unsigned long worker_stack[1024] __attribute__((aligned(16)));

static void set_need_resched(struct task *t)
{
	t->preempt_count &= ~PREEMPT_NEED_RESCHED;
}

static void schedule(void)
{
	struct task *prev = current;
	struct task *next = prev == &init_task ? &worker_task : &init_task;

	prev->preempt_count |= PREEMPT_NEED_RESCHED;
	if (!next->runnable)
		return;
	current = next;
	cpu_switch_to(prev, next);
}

/* The timer tick: the other task is runnable, so the current one should give way. */
void handle_tick(void)
{
	struct task *other = current == &init_task ? &worker_task : &init_task;

	if (other->runnable)
		set_need_resched(current);
}

void preempt_schedule_irq(void)
{
	if (!arm64_const_caps_ready)
		early_irq_preemptions++;
	schedule();
}

/* 19c95f261c65: no preemption from IRQ until every CPU has its features enabled. */
void arm64_preempt_schedule_irq(void)
{
#ifdef EH_MUTANT_NOP
	asm volatile("nop");			/* mutant: neutral */
#endif
#ifndef EH_MUTANT_NO_CAPS_CHECK			/* mutant: the fix's check removed */
	if (arm64_const_caps_ready)
#endif
		preempt_schedule_irq();
}

static __attribute__((noreturn)) void finish(unsigned long result)
{
	((void (*)(unsigned long))harness_return)(result);
	__builtin_unreachable();
}

/* A kernel data load; the harness answers it with its walker and PSTATE.PAN (0 or the fault status). */
static unsigned long kernel_load(unsigned long addr, unsigned long *val)
{
	register unsigned long x0 __asm__("x0") = addr;
	register unsigned long x1 __asm__("x1");

	__asm__ volatile("svc #" SVC_KERNEL_LOAD : "+r"(x0), "=r"(x1) : : "memory");
	*val = x1;
	return x0;
}

/*
 * A kernel thread running while boot finishes. Its read of a user address
 * stands for a kernel access that forgot the uaccess helpers: exactly what PAN
 * exists to stop.
 */
static __attribute__((noreturn)) void worker_main(void)
{
	unsigned long val, status;

	__asm__ volatile("svc #" SVC_TICK : : : "memory");
	while (!boot_done)
		schedule();		/* wait for boot */
	status = kernel_load(USER_ADDR, &val);
	finish(status ? status : val);
}

/* The boot CPU's init task: start the worker, let it run, then set up the CPU features. */
void __attribute__((noreturn)) boot_main(void)
{
	init_task.preempt_count = PREEMPT_NEED_RESCHED;
	init_task.runnable = true;
	worker_task.preempt_count = PREEMPT_NEED_RESCHED;
	worker_task.runnable = true;
	worker_task.ctx.sp = (unsigned long)&worker_stack[1024];
	worker_task.ctx.pc = (unsigned long)worker_main;
	schedule();

	/* setup_cpu_features(): enable every detected capability on all CPUs, then mark them ready. */
	cpu_enable_pan();
	arm64_const_caps_ready = true;
	boot_done = true;
	init_task.runnable = false;
	for (;;)
		schedule();
}
