/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kvm.c - /dev/kvm, its VM and vCPU files and their ioctls (kvm.h,
 * docs/kvm.md): what a minimal arm64 VMM needs, with the mismatched 32-bit
 * rules of spec V3 (KVM_ARM_VCPU_INIT) and of a 32-bit PSTATE set through
 * KVM_SET_ONE_REG. KVM_RUN itself is in kvm_run.c. */
#include "abi.h"
#include "event.h"
#include "file.h"
#include "kvm.h"
#include "machine.h"
#include "mm.h"
#include "shmem.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>

/* arm64 Linux builds KVM without its compat ioctls: a 32-bit task cannot
 * open /dev/kvm (ENODEV) and its ioctls on an inherited KVM fd are EINVAL
 * (abi->kvm says which ABI KVM serves). */
static bool kvm_refuses(struct task *t)
{
    return !task_abi(t)->kvm;
}

bool kvm_aarch32_el0_ok(const struct machine *m)
{
    return cpumask_weight(&m->sched.aarch32) == m->sched.nr_cpus;
}

/* ---- registers: the core ones of struct kvm_regs ---- */

#define KVM_REG_ARM64 UINT64_C(0x6000000000000000)
#define KVM_REG_SIZE_MASK UINT64_C(0x00f0000000000000)
#define KVM_REG_ARM64_CORE_U64 UINT64_C(0x6030000000100000)
/* Offsets in 32-bit words of struct kvm_regs: regs[31], sp, pc, pstate,
 * sp_el1, elr_el1, spsr[0] (SPSR_EL1). */
#define CORE_SP 62
#define CORE_PC 64
#define CORE_PSTATE 66
#define CORE_SP_EL1 68
#define CORE_ELR_EL1 70
#define CORE_SPSR_EL1 72
#define CORE_LAST CORE_SPSR_EL1

#define PSR_MODE32 0x10u
#define PSR_EL0T 0x0u
#define PSR_EL1T 0x4u
#define PSR_EL1H 0x5u

static uc_arm64_cp_reg spsr_el1(void)
{
    return (uc_arm64_cp_reg){.op0 = 3, .op1 = 0, .crn = 4, .crm = 0, .op2 = 0};
}

static int core_get(struct kvm_vcpu *v, unsigned off, uint64_t *val)
{
    uc_engine *uc = v->uc;
    if (off < CORE_SP) {
        uc_reg_read(uc, UC_ARM64_REG_X0 + (int)(off / 2), val);
        if (off / 2 >= 29) /* x29 and x30 are not after x28 in Unicorn's numbering */
            uc_reg_read(uc, off / 2 == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30, val);
        return 0;
    }
    uint32_t ps = 0;
    uc_arm64_cp_reg cp = spsr_el1();
    switch (off) {
    case CORE_SP:
        return uc_reg_read(uc, UC_ARM64_REG_SP_EL0, val) ? -EINVAL : 0;
    case CORE_PC:
        return uc_reg_read(uc, UC_ARM64_REG_PC, val) ? -EINVAL : 0;
    case CORE_PSTATE:
        uc_reg_read(uc, UC_ARM64_REG_PSTATE, &ps);
        *val = v->aarch32 ? v->aarch32_pstate : ps;
        return 0;
    case CORE_SP_EL1:
        return uc_reg_read(uc, UC_ARM64_REG_SP_EL1, val) ? -EINVAL : 0;
    case CORE_ELR_EL1:
        return uc_reg_read(uc, UC_ARM64_REG_ELR_EL1, val) ? -EINVAL : 0;
    case CORE_SPSR_EL1:
        uc_reg_read(uc, UC_ARM64_REG_CP_REG, &cp);
        *val = cp.val;
        return 0;
    }
    return -ENOENT;
}

bool kvm_pstate_valid(uint64_t ps)
{
    unsigned mode = (unsigned)ps & 0x1f;
    if ((ps >> 32) || (ps & PSR_MODE32))
        return false;
    return mode == PSR_EL0T || mode == PSR_EL1T || mode == PSR_EL1H;
}

static int core_set(struct kvm_vcpu *v, unsigned off, uint64_t val)
{
    uc_engine *uc = v->uc;
    uc_arm64_cp_reg cp = spsr_el1();
    if (off < CORE_SP) {
        unsigned n = off / 2;
        int reg = n == 29 ? UC_ARM64_REG_X29 : n == 30 ? UC_ARM64_REG_X30 : UC_ARM64_REG_X0 + (int)n;
        uc_reg_write(uc, reg, &val);
        return 0;
    }
    switch (off) {
    case CORE_SP:
        uc_reg_write(uc, UC_ARM64_REG_SP_EL0, &val);
        return 0;
    case CORE_PC:
        uc_reg_write(uc, UC_ARM64_REG_PC, &val);
        return 0;
    case CORE_PSTATE: {
        if (!kvm_pstate_valid(val))
            return -EINVAL;
        if (v->aarch32)
            kvm_vcpu_leave_aarch32(v);
        uint32_t ps = (uint32_t)val;
        uc_reg_write(uc, UC_ARM64_REG_PSTATE, &ps);
        return 0;
    }
    case CORE_SP_EL1:
        uc_reg_write(uc, UC_ARM64_REG_SP_EL1, &val);
        return 0;
    case CORE_ELR_EL1:
        uc_reg_write(uc, UC_ARM64_REG_ELR_EL1, &val);
        return 0;
    case CORE_SPSR_EL1:
        cp.val = val;
        uc_reg_write(uc, UC_ARM64_REG_CP_REG, &cp);
        return 0;
    }
    return -ENOENT;
}

/* The offset of a core register id, or -EINVAL (not an arm64 id, or the
 * right place but not 64 bits), -ENOENT (another class, or no register
 * there). */
static int core_offset(uint64_t id)
{
    if ((id & ~KVM_REG_SIZE_MASK) >> 32 != KVM_REG_ARM64 >> 32)
        return -EINVAL;
    if ((id & ~(KVM_REG_SIZE_MASK | 0xffff)) != (KVM_REG_ARM64_CORE_U64 & ~KVM_REG_SIZE_MASK))
        return -ENOENT;
    unsigned off = (unsigned)(id & 0xffff);
    if (off > CORE_LAST || off % 2)
        return -ENOENT;
    if ((id & KVM_REG_SIZE_MASK) != (KVM_REG_ARM64_CORE_U64 & KVM_REG_SIZE_MASK))
        return -EINVAL;
    return (int)off;
}

static int64_t one_reg(struct task *t, struct kvm_vcpu *v, uint64_t arg, bool set)
{
    struct {
        uint64_t id, addr;
    } r;
    if (!v->initialized)
        return -ENOEXEC;
    if (copy_from_guest(task_mm(t), &r, arg, sizeof r))
        return -EFAULT;
    int off = core_offset(r.id);
    if (off < 0)
        return off;
    uint64_t val = 0;
    if (set) {
        if (copy_from_guest(task_mm(t), &val, r.addr, sizeof val))
            return -EFAULT;
        return core_set(v, (unsigned)off, val);
    }
    int err = core_get(v, (unsigned)off, &val);
    if (err)
        return err;
    return copy_to_guest(task_mm(t), r.addr, &val, sizeof val) ? -EFAULT : 0;
}

/* KVM_GET_REG_LIST: the registers GET/SET_ONE_REG take, E2BIG with the
 * count when the VMM's n is too small. */
static int64_t reg_list(struct task *t, struct kvm_vcpu *v, uint64_t arg)
{
    uint64_t n, count = CORE_LAST / 2 + 1;
    if (!v->initialized)
        return -ENOEXEC;
    if (copy_from_guest(task_mm(t), &n, arg, sizeof n))
        return -EFAULT;
    if (copy_to_guest(task_mm(t), arg, &count, sizeof count))
        return -EFAULT;
    if (n < count)
        return -E2BIG;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t id = KVM_REG_ARM64_CORE_U64 | (i * 2);
        if (copy_to_guest(task_mm(t), arg + 8 + i * 8, &id, sizeof id))
            return -EFAULT;
    }
    return 0;
}

int kvm_vcpu_init_check(uint32_t target, const uint32_t features[KVM_INIT_FEATURE_WORDS])
{
    if (target != KVM_ARM_TARGET_GENERIC_V8)
        return -EINVAL;
    if (features[0] & (1u << KVM_ARM_VCPU_EL1_32BIT))
        return -EINVAL;
    if (features[0] & ~(1u << KVM_ARM_VCPU_PSCI_0_2))
        return -ENOENT;
    for (int i = 1; i < KVM_INIT_FEATURE_WORDS; i++)
        if (features[i])
            return -ENOENT;
    return 0;
}

static int64_t vcpu_init(struct task *t, struct kvm_vcpu *v, uint64_t arg)
{
    struct {
        uint32_t target;
        uint32_t features[KVM_INIT_FEATURE_WORDS];
    } init;
    if (copy_from_guest(task_mm(t), &init, arg, sizeof init))
        return -EFAULT;
    int err = kvm_vcpu_init_check(init.target, init.features);
    if (err)
        return err;
    kvm_vcpu_reset(v);
    v->initialized = true;
    return 0;
}

static int64_t vcpu_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    struct kvm_vcpu *v = f->priv;
    if (kvm_refuses(t))
        return -EINVAL;
    if (task_mm(t) != v->vm->mm) /* a forked child's, or after an execve */
        return -EIO;
    switch (req) {
    case KVM_RUN:
        return kvm_vcpu_run(t, f);
    case KVM_ARM_VCPU_INIT:
        return vcpu_init(t, v, arg);
    case KVM_GET_ONE_REG:
        return one_reg(t, v, arg, false);
    case KVM_SET_ONE_REG:
        return one_reg(t, v, arg, true);
    case KVM_GET_REG_LIST:
        return reg_list(t, v, arg);
    }
    return -EINVAL; /* what arm64's KVM answers any other request */
}

static struct shmem *vcpu_mmap(struct file *f, uint64_t off, uint64_t len, int *err)
{
    struct kvm_vcpu *v = f->priv;
    if (off != 0 || len > KVM_RUN_PAGE) {
        *err = -EINVAL;
        return NULL;
    }
    return shmem_get(v->run_shm);
}

static void vm_put(struct kvm_vm *vm)
{
    if (--vm->refs == 0)
        free(vm);
}

static void vcpu_release(struct file *f)
{
    struct kvm_vcpu *v = f->priv;
    if (v->reset_ctx)
        uc_context_free(v->reset_ctx);
    if (v->uc) {
        uc_close(v->uc);
        v->vm->machine->kvm_vcpus--;
    }
    if (v->run)
        shmem_unmap_host(v->run, KVM_RUN_PAGE);
    if (v->run_shm)
        shmem_put(v->run_shm);
    vm_put(v->vm);
    free(v);
}

static const struct file_ops vcpu_ops = {
    .name = "anon_inode:kvm-vcpu",
    .ioctl = vcpu_ioctl,
    .release = vcpu_release,
    .mmap = vcpu_mmap,
    .mode = 0600,
};

/* ---- the VM file ---- */

static int64_t check_extension(const struct machine *m, uint64_t cap)
{
    switch (cap) {
    case KVM_CAP_USER_MEMORY:
    case KVM_CAP_ONE_REG:
    case KVM_CAP_ARM_PSCI_0_2:
    case KVM_CAP_IMMEDIATE_EXIT:
        return 1;
    case KVM_CAP_NR_VCPUS:
        return m->sched.nr_cpus < KVM_VCPUS ? m->sched.nr_cpus : KVM_VCPUS;
    case KVM_CAP_MAX_VCPUS:
        return KVM_VCPUS;
    case KVM_CAP_NR_MEMSLOTS:
        return KVM_SLOTS;
    case KVM_CAP_ARM_EL1_32BIT: /* no 32-bit EL1 anywhere (sysreg.c's PFR0) */
    default:
        return 0;
    }
}

static int64_t set_memory_region(struct task *t, struct kvm_vm *vm, uint64_t arg)
{
    struct {
        uint32_t slot, flags;
        uint64_t gpa, size, uaddr;
    } r;
    if (copy_from_guest(task_mm(t), &r, arg, sizeof r))
        return -EFAULT;
    /* No dirty logging, no read-only slots: flags are EINVAL. The VMM's
     * memory need not be mapped yet, as on Linux: KVM_RUN gives EFAULT
     * when it is not (kvm_run.c). */
    if (r.flags || (r.gpa | r.size | r.uaddr) % 4096 || r.uaddr + r.size < r.uaddr ||
        r.uaddr + r.size > KVM_VMM_VA_LIMIT || r.slot >= KVM_SLOTS || r.gpa + r.size < r.gpa)
        return -EINVAL;
    struct kvm_slot *s = &vm->slots[r.slot];
    if (r.size == 0) { /* deletes the slot */
        if (!s->used)
            return -EINVAL;
        s->used = false;
        return 0;
    }
    if (s->used && (s->uaddr != r.uaddr || s->size != r.size))
        return -EINVAL; /* a slot moves (a new gpa) but keeps its memory */
    for (int i = 0; i < KVM_SLOTS; i++) {
        const struct kvm_slot *o = &vm->slots[i];
        if (i != (int)r.slot && o->used && r.gpa < o->gpa + o->size && o->gpa < r.gpa + r.size)
            return -EEXIST;
    }
    if (r.gpa + r.size > KVM_IPA_LIMIT) /* beyond the VM's physical address space */
        return -EFAULT;
    *s = (struct kvm_slot){true, r.gpa, r.size, r.uaddr};
    return 0;
}

static int64_t create_vcpu(struct task *t, struct kvm_vm *vm, uint64_t id)
{
    if (id >= KVM_VCPUS)
        return -EINVAL;
    if (vm->nr_vcpus >= KVM_VCPUS)
        return -EINVAL;
    if (vm->vcpu_ids & (1u << id))
        return -EEXIST;
    if (t->machine->kvm_vcpus >= KVM_MACHINE_VCPUS)
        return -ENOMEM;
    struct kvm_vcpu *v = calloc(1, sizeof *v);
    if (!v)
        return -ENOMEM;
    v->vm = vm;
    v->id = (int)id;
    vm->refs++;
    int err = 0;
    if (!(v->run_shm = shmem_anon(t->machine, KVM_RUN_PAGE, &err)))
        goto fail;
    if (!(v->run = shmem_map_host(v->run_shm, 0, KVM_RUN_PAGE, true))) {
        err = -ENOMEM;
        goto fail;
    }
    if ((err = kvm_vcpu_engine_open(v)) < 0)
        goto fail;
    t->machine->kvm_vcpus++;
    struct file *f = file_new_object(t->machine, &vcpu_ops, v, O_RDWR);
    if (!f) {
        err = -ENOMEM;
        goto fail;
    }
    /* The id stays taken when the fd is closed (Linux keeps the vCPU in
     * its VM), not when there was no fd for it. */
    vm->nr_vcpus++;
    vm->vcpu_ids |= 1u << id;
    int fd = fd_install_new(t, f, true);
    if (fd < 0) {
        vm->nr_vcpus--;
        vm->vcpu_ids &= ~(1u << id);
    }
    return fd;

fail:
    vcpu_release(&(struct file){.priv = v});
    return err;
}

static int64_t vm_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    struct kvm_vm *vm = f->priv;
    if (kvm_refuses(t))
        return -EINVAL;
    if (task_mm(t) != vm->mm)
        return -EIO;
    switch (req) {
    case KVM_CHECK_EXTENSION:
        return check_extension(t->machine, arg);
    case KVM_SET_USER_MEMORY_REGION:
        return set_memory_region(t, vm, arg);
    case KVM_CREATE_VCPU:
        return create_vcpu(t, vm, arg);
    case KVM_ARM_PREFERRED_TARGET: {
        uint32_t init[8] = {KVM_ARM_TARGET_GENERIC_V8};
        return copy_to_guest(task_mm(t), arg, init, sizeof init) ? -EFAULT : 0;
    }
    }
    return -EINVAL;
}

static void vm_release(struct file *f)
{
    vm_put(f->priv);
}

static const struct file_ops vm_ops = {
    .name = "anon_inode:kvm-vm",
    .ioctl = vm_ioctl,
    .release = vm_release,
    .mode = 0600,
};

/* ---- /dev/kvm ---- */

static int64_t system_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    (void)f;
    if (kvm_refuses(t))
        return -EINVAL;
    switch (req) {
    case KVM_GET_API_VERSION:
        return arg ? -EINVAL : KVM_API_VERSION;
    case KVM_CHECK_EXTENSION:
        return check_extension(t->machine, arg);
    case KVM_GET_VCPU_MMAP_SIZE:
        return arg ? -EINVAL : KVM_RUN_PAGE;
    case KVM_CREATE_VM: {
        if (arg) /* no IPA size to choose: KVM_CAP_ARM_VM_IPA_SIZE is 0 */
            return -EINVAL;
        struct kvm_vm *vm = calloc(1, sizeof *vm);
        if (!vm)
            return -ENOMEM;
        vm->refs = 1;
        vm->machine = t->machine;
        vm->mm = task_mm(t);
        return anon_inode_fd(t, &vm_ops, vm, O_RDWR, true);
    }
    }
    return -EINVAL;
}

static const struct file_ops system_ops = {
    .name = "/dev/kvm",
    .ioctl = system_ioctl,
    .mode = 0660,
};

int kvm_open(struct task *t, int flags, struct file **out)
{
    if (kvm_refuses(t))
        return -ENODEV;
    struct file *f = file_new_object(t->machine, &system_ops, NULL, flags & (O_ACCMODE | O_NONBLOCK));
    if (!f)
        return -ENOMEM;
    f->path = strdup("/dev/kvm");
    *out = f;
    return 0;
}
