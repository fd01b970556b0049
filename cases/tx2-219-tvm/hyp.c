/*
 * The KVM code d3ec3a08fa70 changes (Linux 5.4, arch/arm64/kvm/hyp/switch.c), reduced to what
 * erratum 219 touches: trap activation, the virtual SError hand-back in __deactivate_traps, and
 * the TVM fast path; plus the few host-side vcpu updates the scenarios need. Freestanding C for
 * AArch64: functions marked __hyp_text run at the harness's virtual EL2, the others at EL1.
 */
#include <stdbool.h>

typedef unsigned long u64;
typedef unsigned int u32;

/* KVM's own section for EL2 code; the harness starts a thread placed there at virtual EL2. */
#define __hyp_text __attribute__((section(".hyp.text"), noinline))
#define __always_inline inline __attribute__((always_inline))

#define read_sysreg(r) ({ u64 __v; __asm__ volatile("mrs %0, " #r : "=r"(__v)); __v; })
#define write_sysreg(v, r) __asm__ volatile("msr " #r ", %x0" : : "rZ"((u64)(v)))

/* HCR_EL2 (asm/kvm_arm.h). */
#define HCR_VM (1UL << 0)
#define HCR_SWIO (1UL << 1)
#define HCR_FMO (1UL << 3)
#define HCR_IMO (1UL << 4)
#define HCR_AMO (1UL << 5)
#define HCR_VSE (1UL << 8)
#define HCR_TVM (1UL << 26)
#define HCR_RW (1UL << 31)
/* The bits of 5.4's HCR_GUEST_FLAGS that matter here (AMO routes virtual SErrors to the guest). */
#define HCR_GUEST_FLAGS (HCR_RW | HCR_AMO | HCR_IMO | HCR_FMO | HCR_SWIO | HCR_VM)
#define HCR_HOST_NVHE_FLAGS HCR_RW  /* 5.4 adds API and APK (pointer authentication) */

/* ESR_ELx of a trapped MSR/MRS (asm/esr.h): EC, Rt, and the register named by the ISS. */
#define ESR_ELx_EC(esr) (((esr) >> 26) & 0x3f)
#define ESR_ELx_EC_SYS64 0x18
#define ESR_ELx_SYS64_ISS_RT(esr) (((esr) >> 5) & 0x1f)
#define sys_reg(op0, op1, crn, crm, op2) \
	(((op0) << 19) | ((op1) << 16) | ((crn) << 12) | ((crm) << 8) | ((op2) << 5))
#define esr_sys64_to_sysreg(e) \
	sys_reg(((e) >> 20) & 3, ((e) >> 14) & 7, ((e) >> 10) & 15, ((e) >> 1) & 15, ((e) >> 17) & 7)

#define SYS_SCTLR_EL1 sys_reg(3, 0, 1, 0, 0)
#define SYS_TTBR0_EL1 sys_reg(3, 0, 2, 0, 0)
#define SYS_TTBR1_EL1 sys_reg(3, 0, 2, 0, 1)
#define SYS_TCR_EL1 sys_reg(3, 0, 2, 0, 2)
#define SYS_AFSR0_EL1 sys_reg(3, 0, 5, 1, 0)
#define SYS_AFSR1_EL1 sys_reg(3, 0, 5, 1, 1)
#define SYS_ESR_EL1 sys_reg(3, 0, 5, 2, 0)
#define SYS_FAR_EL1 sys_reg(3, 0, 6, 0, 0)
#define SYS_MAIR_EL1 sys_reg(3, 0, 10, 2, 0)
#define SYS_AMAIR_EL1 sys_reg(3, 0, 10, 3, 0)
#define SYS_CONTEXTIDR_EL1 sys_reg(3, 0, 13, 0, 1)

/* The part of struct kvm_vcpu used here: the vcpu's own HCR_EL2 (vcpu->arch.hcr_el2). */
struct kvm_vcpu {
	u64 hcr_el2;
};

struct kvm_vcpu vcpu;

/* cpus_have_const_cap(ARM64_WORKAROUND_CAVIUM_TX2_219_TVM): an alternative, in entry.S. */
bool has_tx2_219_tvm(void);
extern char __kvm_hyp_vector[];

/* __activate_traps(), with (after) or without (before) d3ec3a08fa70's first hunk. */
static __always_inline void activate_traps(struct kvm_vcpu *v, bool tx2_fix)
{
	u64 hcr = v->hcr_el2;

	if (tx2_fix && has_tx2_219_tvm())
		hcr |= HCR_TVM;
	write_sysreg(hcr, hcr_el2);
}

/* __deactivate_traps(), with (after) or without (before) the commit's second hunk. */
static __always_inline void deactivate_traps(struct kvm_vcpu *v, bool vse_fix)
{
	/*
	 * If we pended a virtual abort, preserve it until it gets cleared:
	 * "On taking a vSError interrupt, HCR_EL2.VSE is cleared to 0."
	 */
	if (v->hcr_el2 & HCR_VSE) {
#ifdef EH_MUTANT_VSE_COPIES_HCR		/* mutant: the fix reverted */
		vse_fix = false;
#endif
		if (vse_fix) {
			v->hcr_el2 &= ~HCR_VSE;
			v->hcr_el2 |= read_sysreg(hcr_el2) & HCR_VSE;
		} else {
			v->hcr_el2 = read_sysreg(hcr_el2);
		}
	}
	write_sysreg(HCR_HOST_NVHE_FLAGS, hcr_el2);
}

void __hyp_text kvm_activate_traps_before(void)
{
	activate_traps(&vcpu, false);
}

void __hyp_text kvm_activate_traps(void)
{
	activate_traps(&vcpu, true);
}

void __hyp_text kvm_deactivate_traps_before(void)
{
	deactivate_traps(&vcpu, false);
}

void __hyp_text kvm_deactivate_traps(void)
{
	deactivate_traps(&vcpu, true);
}

/* KVM installs its vectors once, at hyp init (__kvm_hyp_init). */
void __hyp_text kvm_hyp_init(void)
{
	write_sysreg(__kvm_hyp_vector, vbar_el2);
}

/* d3ec3a08fa70's fast path: perform the trapped write at EL2, skip the instruction, go back. */
static bool __hyp_text handle_tx2_tvm(struct kvm_vcpu *v, const u64 *regs)
{
	u64 esr = read_sysreg(esr_el2);
	u32 sysreg = esr_sys64_to_sysreg(esr);
	unsigned rt = ESR_ELx_SYS64_ISS_RT(esr);
	u64 val = rt == 31 ? 0 : regs[rt];

	/* The normal sysreg handling code expects to see the traps, let's not do anything here. */
	if (v->hcr_el2 & HCR_TVM)
		return false;

	switch (sysreg) {
	case SYS_SCTLR_EL1:
		write_sysreg(val, sctlr_el1);
		break;
	case SYS_TTBR0_EL1:
#ifndef EH_MUTANT_NO_TTBR_WRITE		/* mutant: the fast path forgets the write */
		write_sysreg(val, ttbr0_el1);
#endif
		break;
	case SYS_TTBR1_EL1:
		write_sysreg(val, ttbr1_el1);
		break;
	case SYS_TCR_EL1:
		write_sysreg(val, tcr_el1);
		break;
	case SYS_ESR_EL1:
		write_sysreg(val, esr_el1);
		break;
	case SYS_FAR_EL1:
		write_sysreg(val, far_el1);
		break;
	case SYS_AFSR0_EL1:
		write_sysreg(val, afsr0_el1);
		break;
	case SYS_AFSR1_EL1:
		write_sysreg(val, afsr1_el1);
		break;
	case SYS_MAIR_EL1:
		write_sysreg(val, mair_el1);
		break;
	case SYS_AMAIR_EL1:
		write_sysreg(val, amair_el1);
		break;
	case SYS_CONTEXTIDR_EL1:
		write_sysreg(val, contextidr_el1);
		break;
	default:
		return false;
	}

	/* __kvm_skip_instr(): every trapped MSR is a 32-bit instruction. */
#ifndef EH_MUTANT_NO_ELR_ADVANCE	/* mutant: the guest re-runs its MSR forever */
	write_sysreg(read_sysreg(elr_el2) + 4, elr_el2);
#endif
	return true;
}

/*
 * fixup_guest_exit() for a trap: true means "handled, return to the guest". regs
 * holds the guest's x0..x30, saved by the exception entry as KVM's __guest_exit
 * saves them in the vcpu context.
 */
bool __hyp_text fixup_guest_exit(const u64 *regs)
{
	if (has_tx2_219_tvm() && ESR_ELx_EC(read_sysreg(esr_el2)) == ESR_ELx_EC_SYS64 &&
	    handle_tx2_tvm(&vcpu, regs))
		return true;
	return false;
}

/* Host side (EL1). kvm_reset_vcpu(): a fresh vcpu's HCR_EL2. */
void kvm_reset_vcpu(void)
{
	vcpu.hcr_el2 = HCR_GUEST_FLAGS;
}

/* kvm_inject_vabt(): pend a virtual SError for the guest's next run. */
void kvm_inject_vabt(void)
{
	vcpu.hcr_el2 |= HCR_VSE;
}

/*
 * kvm_set_way_flush(): the guest did set/way cache maintenance with its caches off,
 * so KVM traps its VM register writes (TVM) until it turns them on: the vcpu itself
 * now asks for the traps, and its own sysreg code must see them.
 */
void kvm_set_way_flush(void)
{
	vcpu.hcr_el2 |= HCR_TVM;
}
