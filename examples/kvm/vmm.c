/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmm.c - a minimal arm64 VMM over /dev/kvm (docs/kvm.md): one vCPU, one
 * memory slot of 64 KiB at guest physical 0, a console over MMIO at
 * 0x09000000 (payloads.S), PSCI SYSTEM_OFF to stop.
 *
 *   kvm-vmm hello    boots the payload that prints over MMIO
 *   kvm-vmm aarch32  boots the payload that drops to AArch32 EL0 (spec V1)
 *                    and shows what each KVM call gives afterwards
 *   kvm-vmm checks   the ioctls' answers and refusals (V3, 32-bit PSTATE)
 *   kvm-vmm spin     a VM that never stops: KVM_RUN ends with EINTR at a
 *                    signal, and a child (on a one-CPU machine) runs meanwhile
 *   kvm-vmm hostile  bad slots, bad pointers, unknown requests, a vCPU
 *                    outliving its VM fd, KVM_RUN from another process
 *
 * Every line it prints is deterministic, to be compared byte for byte. */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

extern const uint8_t payload_hello[], payload_hello_end[];
extern const uint8_t payload_aarch32[], payload_aarch32_end[];
extern const uint8_t payload_spin[], payload_spin_end[];

#define MEM_SIZE 0x10000
#define HELLO_AT 0x0
#define AARCH32_AT 0x1000
#define SPIN_AT 0x2000
#define MMIO_BASE 0x09000000
#define PSTATE_EL1H 0x3c5

#define CORE_REG(field) \
    (KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | (offsetof(struct kvm_regs, field) / 4))

struct vm {
    int kvm, vm, vcpu;
    uint8_t *mem;
    struct kvm_run *run;
};

static const char *errno_name(int e)
{
    switch (e) {
    case 0: return "0";
    case EINVAL: return "EINVAL";
    case ENOEXEC: return "ENOEXEC";
    case ENOENT: return "ENOENT";
    case E2BIG: return "E2BIG";
    case EINTR: return "EINTR";
    case EFAULT: return "EFAULT";
    case EEXIST: return "EEXIST";
    case EIO: return "EIO";
    case ENOMEM: return "ENOMEM";
    case ENOTTY: return "ENOTTY";
    default: return strerror(e);
    }
}

/* The result of an ioctl as "0", "5" or "EINVAL". */
static const char *result(long r)
{
    static char buf[32];
    if (r < 0)
        return errno_name(errno);
    snprintf(buf, sizeof buf, "%ld", r);
    return buf;
}

static void die(const char *what)
{
    printf("%s: %s\n", what, errno_name(errno));
    exit(1);
}

static long set_reg(struct vm *v, uint64_t id, uint64_t val)
{
    struct kvm_one_reg r = {.id = id, .addr = (uint64_t)(uintptr_t)&val};
    return ioctl(v->vcpu, KVM_SET_ONE_REG, &r);
}

static long get_reg(struct vm *v, uint64_t id, uint64_t *val)
{
    struct kvm_one_reg r = {.id = id, .addr = (uint64_t)(uintptr_t)val};
    return ioctl(v->vcpu, KVM_GET_ONE_REG, &r);
}

static long vcpu_init(struct vm *v, uint32_t features)
{
    struct kvm_vcpu_init init;
    if (ioctl(v->vm, KVM_ARM_PREFERRED_TARGET, &init) < 0)
        die("KVM_ARM_PREFERRED_TARGET");
    init.features[0] = features;
    return ioctl(v->vcpu, KVM_ARM_VCPU_INIT, &init);
}

/* /dev/kvm, a VM with its memory (both payloads loaded) and one vCPU. */
static void vm_create(struct vm *v)
{
    if ((v->kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC)) < 0)
        die("open /dev/kvm");
    if ((v->vm = ioctl(v->kvm, KVM_CREATE_VM, 0)) < 0)
        die("KVM_CREATE_VM");
    v->mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (v->mem == MAP_FAILED)
        die("mmap memory");
    memcpy(v->mem + HELLO_AT, payload_hello, (size_t)(payload_hello_end - payload_hello));
    memcpy(v->mem + AARCH32_AT, payload_aarch32, (size_t)(payload_aarch32_end - payload_aarch32));
    memcpy(v->mem + SPIN_AT, payload_spin, (size_t)(payload_spin_end - payload_spin));
    struct kvm_userspace_memory_region region = {
        .slot = 0, .guest_phys_addr = 0, .memory_size = MEM_SIZE,
        .userspace_addr = (uint64_t)(uintptr_t)v->mem};
    if (ioctl(v->vm, KVM_SET_USER_MEMORY_REGION, &region) < 0)
        die("KVM_SET_USER_MEMORY_REGION");
    if ((v->vcpu = ioctl(v->vm, KVM_CREATE_VCPU, 0)) < 0)
        die("KVM_CREATE_VCPU");
    long size = ioctl(v->kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
    if (size < 0)
        die("KVM_GET_VCPU_MMAP_SIZE");
    v->run = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, v->vcpu, 0);
    if (v->run == MAP_FAILED)
        die("mmap kvm_run");
}

static uint64_t mmio_value(const struct kvm_run *run)
{
    uint64_t val = 0;
    memcpy(&val, run->mmio.data, run->mmio.len);
    return val;
}

/* One MMIO exit: the console of payloads.S. False when the payload said
 * it is done. */
static int mmio(struct kvm_run *run)
{
    uint64_t reg = run->mmio.phys_addr - MMIO_BASE, val = mmio_value(run);
    if (!run->mmio.is_write) {
        uint32_t answer = reg == 0x10 ? 42 : 0;
        memcpy(run->mmio.data, &answer, sizeof answer);
        return 1;
    }
    switch (reg) {
    case 0x00:
        putchar((int)val);
        return 1;
    case 0x08:
        printf("ID_AA64PFR0_EL1.EL0 = %llu\n", (unsigned long long)(val & 0xf));
        return 1;
    case 0x18:
        printf("the VM wrote back %llu\n", (unsigned long long)val);
        return 1;
    case 0x20:
        printf("payload done in AArch32 EL0\n");
        return 0;
    }
    printf("MMIO write of %u bytes at 0x%llx\n", run->mmio.len,
           (unsigned long long)run->mmio.phys_addr);
    return 1;
}

/* Runs the vCPU until it stops: 0 at a system event or the done register,
 * else KVM_RUN's failure (errno set). */
static long run_vm(struct vm *v)
{
    for (;;) {
        if (ioctl(v->vcpu, KVM_RUN, 0) < 0)
            return -1;
        switch (v->run->exit_reason) {
        case KVM_EXIT_MMIO:
            if (!mmio(v->run))
                return 0;
            break;
        case KVM_EXIT_SYSTEM_EVENT:
            printf("system event: %s\n",
                   v->run->system_event.type == KVM_SYSTEM_EVENT_SHUTDOWN ? "shutdown" : "reset");
            return 0;
        default:
            printf("exit reason %u\n", v->run->exit_reason);
            return 0;
        }
    }
}

static void report_run(struct vm *v, const char *what)
{
    long r = run_vm(v);
    if (r < 0)
        printf("%s: %s, exit_reason %u\n", what, errno_name(errno), v->run->exit_reason);
}

static int cmd_hello(void)
{
    struct vm v;
    vm_create(&v);
    if (vcpu_init(&v, 0) < 0)
        die("KVM_ARM_VCPU_INIT");
    if (set_reg(&v, CORE_REG(regs.pc), HELLO_AT) < 0)
        die("KVM_SET_ONE_REG pc");
    report_run(&v, "KVM_RUN");
    return 0;
}

static int cmd_aarch32(void)
{
    struct vm v;
    uint64_t pstate = 0;
    vm_create(&v);
    if (vcpu_init(&v, 0) < 0)
        die("KVM_ARM_VCPU_INIT");
    if (set_reg(&v, CORE_REG(regs.pc), AARCH32_AT) < 0)
        die("KVM_SET_ONE_REG pc");
    if (run_vm(&v) == 0)
        return 0; /* a symmetric machine: the payload ran */
    printf("KVM_RUN: %s, exit_reason %u\n", errno_name(errno), v.run->exit_reason);
    long r = get_reg(&v, CORE_REG(regs.pstate), &pstate);
    printf("KVM_GET_ONE_REG pstate: %s", result(r));
    printf(r == 0 ? ", pstate 0x%llx\n" : "\n", (unsigned long long)pstate);
    r = ioctl(v.vcpu, KVM_RUN, 0);
    printf("KVM_RUN again: %s\n", result(r));
    printf("KVM_SET_ONE_REG pstate EL1h: %s\n", result(set_reg(&v, CORE_REG(regs.pstate), PSTATE_EL1H)));
    printf("KVM_SET_ONE_REG pc: %s\n", result(set_reg(&v, CORE_REG(regs.pc), HELLO_AT)));
    report_run(&v, "KVM_RUN after the registers");
    printf("KVM_ARM_VCPU_INIT: %s\n", result(vcpu_init(&v, 0)));
    if (set_reg(&v, CORE_REG(regs.pc), HELLO_AT) < 0)
        die("KVM_SET_ONE_REG pc");
    report_run(&v, "KVM_RUN after KVM_ARM_VCPU_INIT");
    return 0;
}

static int cmd_checks(void)
{
    struct vm v;
    vm_create(&v);
    printf("KVM_GET_API_VERSION: %s\n", result(ioctl(v.kvm, KVM_GET_API_VERSION, 0)));
    static const struct { const char *name; long cap; } caps[] = {
        {"KVM_CAP_USER_MEMORY", KVM_CAP_USER_MEMORY},
        {"KVM_CAP_ONE_REG", KVM_CAP_ONE_REG},
        {"KVM_CAP_ARM_PSCI_0_2", KVM_CAP_ARM_PSCI_0_2},
        {"KVM_CAP_IMMEDIATE_EXIT", KVM_CAP_IMMEDIATE_EXIT},
        {"KVM_CAP_NR_MEMSLOTS", KVM_CAP_NR_MEMSLOTS},
        {"KVM_CAP_ARM_EL1_32BIT", KVM_CAP_ARM_EL1_32BIT},
        {"KVM_CAP_ARM_PMU_V3", KVM_CAP_ARM_PMU_V3},
    };
    for (size_t i = 0; i < sizeof caps / sizeof *caps; i++)
        printf("%s: %s\n", caps[i].name, result(ioctl(v.kvm, KVM_CHECK_EXTENSION, caps[i].cap)));
    printf("KVM_GET_VCPU_MMAP_SIZE: %s\n", result(ioctl(v.kvm, KVM_GET_VCPU_MMAP_SIZE, 0)));
    struct kvm_vcpu_init init;
    printf("KVM_ARM_PREFERRED_TARGET: %s", result(ioctl(v.vm, KVM_ARM_PREFERRED_TARGET, &init)));
    printf(", target %u\n", init.target);
    printf("KVM_RUN before KVM_ARM_VCPU_INIT: %s\n", result(ioctl(v.vcpu, KVM_RUN, 0)));
    printf("KVM_ARM_VCPU_INIT with EL1_32BIT: %s\n", result(vcpu_init(&v, 1u << KVM_ARM_VCPU_EL1_32BIT)));
    printf("KVM_ARM_VCPU_INIT: %s\n", result(vcpu_init(&v, 1u << KVM_ARM_VCPU_PSCI_0_2)));
    printf("KVM_SET_ONE_REG pstate usr32: %s\n", result(set_reg(&v, CORE_REG(regs.pstate), 0x10)));
    printf("KVM_SET_ONE_REG pstate EL1h: %s\n", result(set_reg(&v, CORE_REG(regs.pstate), PSTATE_EL1H)));
    uint64_t x5 = 0;
    set_reg(&v, CORE_REG(regs.regs[5]), 0x1234);
    printf("KVM_GET_ONE_REG x5: %s", result(get_reg(&v, CORE_REG(regs.regs[5]), &x5)));
    printf(", 0x%llx\n", (unsigned long long)x5);
    printf("KVM_GET_ONE_REG fpsr: %s\n", result(get_reg(&v, CORE_REG(fp_regs.fpsr), &x5)));
    struct kvm_reg_list probe = {.n = 0};
    printf("KVM_GET_REG_LIST n=0: %s", result(ioctl(v.vcpu, KVM_GET_REG_LIST, &probe)));
    printf(", n %llu\n", (unsigned long long)probe.n);
    struct kvm_reg_list *list = calloc(1, sizeof *list + probe.n * sizeof(uint64_t));
    list->n = probe.n;
    printf("KVM_GET_REG_LIST: %s", result(ioctl(v.vcpu, KVM_GET_REG_LIST, list)));
    printf(", first 0x%llx, pc 0x%llx\n", (unsigned long long)list->reg[0],
           (unsigned long long)list->reg[32]);
    v.run->immediate_exit = 1;
    printf("KVM_RUN with immediate_exit: %s\n", result(ioctl(v.vcpu, KVM_RUN, 0)));
    return 0;
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

/* The VM spins for 100 ms of virtual time until SIGALRM; a child that
 * sleeps 10 ms first writes to a pipe meanwhile. On a one-CPU machine it
 * can do so only if the VMM's task is preempted while its VM runs. */
static int cmd_spin(void)
{
    struct vm v;
    int pipefd[2];
    char c;
    vm_create(&v);
    if (vcpu_init(&v, 0) < 0 || set_reg(&v, CORE_REG(regs.pc), SPIN_AT) < 0)
        die("vCPU setup");
    if (pipe(pipefd) < 0)
        die("pipe");
    pid_t child = fork();
    if (child == 0) {
        usleep(10000);
        write(pipefd[1], "x", 1);
        _exit(0);
    }
    struct sigaction sa = {.sa_handler = on_alarm};
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {.it_value = {.tv_usec = 100000}};
    setitimer(ITIMER_REAL, &it, NULL);
    long r = ioctl(v.vcpu, KVM_RUN, 0);
    printf("KVM_RUN: %s, exit_reason %u, SIGALRM handled %d time(s)\n", result(r),
           v.run->exit_reason, (int)alarms);
    fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
    printf("the child wrote while the VM ran: %s\n", read(pipefd[0], &c, 1) == 1 ? "yes" : "no");
    waitpid(child, NULL, 0);
    return 0;
}

/* Every refusal a careless or hostile VMM meets; nothing may crash. */
static int cmd_hostile(void)
{
    struct vm v;
    vm_create(&v);
    struct kvm_userspace_memory_region r = {.slot = 1, .guest_phys_addr = 0x100000,
                                            .memory_size = 0x1000,
                                            .userspace_addr = (uint64_t)(uintptr_t)v.mem};
#define REGION(what, field, value)                                                          \
    do {                                                                                    \
        struct kvm_userspace_memory_region bad = r;                                         \
        bad.field = value;                                                                  \
        printf("KVM_SET_USER_MEMORY_REGION %s: %s\n", what,                                 \
               result(ioctl(v.vm, KVM_SET_USER_MEMORY_REGION, &bad)));                      \
    } while (0)
    REGION("unaligned gpa", guest_phys_addr, 0x100800);
    REGION("unaligned size", memory_size, 0x1800);
    REGION("unaligned uaddr", userspace_addr, r.userspace_addr + 8);
    REGION("slot 40000", slot, 40000);
    REGION("kernel uaddr", userspace_addr, 0xffff000000000000ull);
    REGION("wrapping gpa", guest_phys_addr, 0xfffffffffffff000ull);
    REGION("gpa past the IPA space", guest_phys_addr, 1ull << 41);
    REGION("overlapping slot 0", guest_phys_addr, 0x8000);
    REGION("deleting an empty slot", memory_size, 0);
    printf("KVM_SET_USER_MEMORY_REGION bad pointer: %s\n",
           result(ioctl(v.vm, KVM_SET_USER_MEMORY_REGION, (void *)16)));
    printf("KVM_CREATE_VCPU id 0 again: %s\n", result(ioctl(v.vm, KVM_CREATE_VCPU, 0)));
    printf("KVM_CREATE_VCPU id 1000: %s\n", result(ioctl(v.vm, KVM_CREATE_VCPU, 1000)));
    printf("unknown /dev/kvm request: %s\n", result(ioctl(v.kvm, _IO(KVMIO, 0x7f), 0)));
    printf("unknown VM request: %s\n", result(ioctl(v.vm, _IO(KVMIO, 0x7f), 0)));
    printf("unknown vCPU request: %s\n", result(ioctl(v.vcpu, _IO(KVMIO, 0x7f), 0)));
    printf("TCGETS on the vCPU: %s\n", result(ioctl(v.vcpu, 0x5401, 0)));
    printf("KVM_ARM_VCPU_INIT bad pointer: %s\n", result(ioctl(v.vcpu, KVM_ARM_VCPU_INIT, (void *)16)));
    if (vcpu_init(&v, 0) < 0)
        die("KVM_ARM_VCPU_INIT");
    struct kvm_one_reg bad_reg = {.id = CORE_REG(regs.pc), .addr = 16};
    printf("KVM_GET_ONE_REG bad address: %s\n", result(ioctl(v.vcpu, KVM_GET_ONE_REG, &bad_reg)));
    printf("KVM_SET_ONE_REG bad address: %s\n", result(ioctl(v.vcpu, KVM_SET_ONE_REG, &bad_reg)));
    bad_reg.id = 0;
    printf("KVM_GET_ONE_REG id 0: %s\n", result(ioctl(v.vcpu, KVM_GET_ONE_REG, &bad_reg)));
    printf("KVM_GET_REG_LIST bad pointer: %s\n", result(ioctl(v.vcpu, KVM_GET_REG_LIST, (void *)16)));
    /* A slot whose memory the VMM unmaps: KVM_RUN fails, the VM is intact. */
    uint8_t *gone = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    r.userspace_addr = (uint64_t)(uintptr_t)gone;
    printf("KVM_SET_USER_MEMORY_REGION slot 1: %s\n", result(ioctl(v.vm, KVM_SET_USER_MEMORY_REGION, &r)));
    munmap(gone, 0x1000);
    set_reg(&v, CORE_REG(regs.pc), HELLO_AT);
    printf("KVM_RUN with slot 1 unmapped: %s\n", result(ioctl(v.vcpu, KVM_RUN, 0)));
    r.memory_size = 0;
    printf("KVM_SET_USER_MEMORY_REGION deleting slot 1: %s\n",
           result(ioctl(v.vm, KVM_SET_USER_MEMORY_REGION, &r)));
    /* KVM_RUN from a forked child: the VM belongs to its parent's mm. */
    pid_t child = fork();
    if (child == 0) {
        printf("KVM_RUN in a child: %s\n", result(ioctl(v.vcpu, KVM_RUN, 0)));
        printf("KVM_CREATE_VCPU in a child: %s\n", result(ioctl(v.vm, KVM_CREATE_VCPU, 1)));
        _exit(0);
    }
    waitpid(child, NULL, 0);
    /* The machine's budget of vCPUs (each is an engine in the emulator):
     * the VMM has one, makes more in new VMs until ENOMEM, and may make
     * one again once it closes one. */
    int made = 0, last = -1, extra_vm = -1;
    long err = 0;
    for (int id = 0; err >= 0; id = (id + 1) % 8) {
        if (id == 0 && (extra_vm = ioctl(v.kvm, KVM_CREATE_VM, 0)) < 0)
            die("KVM_CREATE_VM");
        if ((err = ioctl(extra_vm, KVM_CREATE_VCPU, id)) >= 0) {
            last = (int)err;
            made++;
        }
    }
    printf("more vCPUs: %d, then %s\n", made, errno_name(errno));
    close(last);
    printf("KVM_CREATE_VCPU after closing one: %s\n",
           ioctl(v.vm, KVM_CREATE_VCPU, 2) >= 0 ? "made" : errno_name(errno));
    /* The vCPU keeps its VM alive after the VM's fd is closed. */
    close(v.vm);
    close(v.kvm);
    printf("after closing the VM fd:\n");
    report_run(&v, "KVM_RUN");
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 2 && strcmp(argv[1], "hello") == 0)
        return cmd_hello();
    if (argc == 2 && strcmp(argv[1], "aarch32") == 0)
        return cmd_aarch32();
    if (argc == 2 && strcmp(argv[1], "checks") == 0)
        return cmd_checks();
    if (argc == 2 && strcmp(argv[1], "spin") == 0)
        return cmd_spin();
    if (argc == 2 && strcmp(argv[1], "hostile") == 0)
        return cmd_hostile();
    fprintf(stderr, "usage: %s hello|aarch32|checks|spin|hostile\n", argv[0]);
    return 2;
}
