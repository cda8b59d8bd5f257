/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keys.c - the kernel key retention service: add_key, request_key and
 * keyctl as Linux 5.15's security/keys/ (key.c, keyring.c, keyctl.c,
 * process_keys.c, permission.c, user_defined.c, proc.c) answers them.
 *
 * Key types: "user", "logon" (no read method) and "keyring"; any other name
 * is ENODEV (key_type_lookup()), a name starting with '.' EPERM. A key lives
 * while something holds it: a keyring's link, a process's session or
 * process keyring, a thread's thread keyring, or its owner's user keyrings;
 * the last reference frees it at once (Linux frees it in its garbage
 * collector a little later). Revoked and expired keys stay linked as they do
 * until Linux's key_gc_delay (5 minutes) would pass; invalidated keys are
 * unlinked at once, as the collector does straight away for them.
 * /proc/sys/kernel/keys' quotas are the machine's (sysctl.h); its gc_delay
 * is kept and shown but nothing is collected.
 *
 * Where asymu differs: keyrings are per process, not per thread's cred
 * (asymu's cred is per process), except the thread keyring; serial numbers
 * count up from a fixed start (Linux picks random ones, key_alloc_serial())
 * so that runs repeat; a keyring's READ lists its keys in the order they
 * were linked (Linux's assoc_array order is by hash); request_key makes no
 * /sbin/request-key upcall: a key not found is ENOKEY (Linux would add a
 * negative key when the upcall fails); KEYCTL_RESTRICT_KEYRING,
 * KEYCTL_GET_PERSISTENT (Debian's kernel has CONFIG_PERSISTENT_KEYRINGS),
 * KEYCTL_DH_COMPUTE, KEYCTL_PKEY_* and KEYCTL_WATCH_KEY are EOPNOTSUPP, as
 * a kernel without those options answers; there is no request-key
 * authorisation key, so KEYCTL_INSTANTIATE and friends are EPERM. */
#include "keys.h"

#include "cred.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "task.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* include/uapi/linux/keyctl.h */
#define KEY_SPEC_THREAD_KEYRING (-1)
#define KEY_SPEC_PROCESS_KEYRING (-2)
#define KEY_SPEC_SESSION_KEYRING (-3)
#define KEY_SPEC_USER_KEYRING (-4)
#define KEY_SPEC_USER_SESSION_KEYRING (-5)
#define KEY_SPEC_GROUP_KEYRING (-6)
#define KEY_SPEC_REQKEY_AUTH_KEY (-7)
#define KEY_SPEC_REQUESTOR_KEYRING (-8)

#define KEY_REQKEY_DEFL_NO_CHANGE (-1)
#define KEY_REQKEY_DEFL_THREAD_KEYRING 1
#define KEY_REQKEY_DEFL_PROCESS_KEYRING 2
#define KEY_REQKEY_DEFL_GROUP_KEYRING 6
#define KEY_REQKEY_DEFL_REQUESTOR_KEYRING 7

/* include/linux/key.h: possessor, user, group, other, a byte each */
#define KEY_VIEW 0x01
#define KEY_READ 0x02
#define KEY_WRITE 0x04
#define KEY_SEARCH 0x08
#define KEY_LINK 0x10
#define KEY_SETATTR 0x20
#define KEY_ALL 0x3f
#define KEY_POS(x) ((uint32_t)(x) << 24)
#define KEY_USR(x) ((uint32_t)(x) << 16)
#define KEY_GRP_ALL 0x00003f00u
#define PERM_VALID 0x3f3f3f3fu
#define NEED_UNLINK 0x100 /* KEY_NEED_UNLINK: no permission needed */
#define NEED_DEFER 0x200  /* KEY_DEFER_PERM_CHECK: the caller checks */

#define LOOKUP_CREATE 1
#define LOOKUP_PARTIAL 2

#define INVALID_ID 0xffffffffu
#define OVERFLOW_ID 65534 /* from_kuid_munged() of an id with no mapping */
#define KEY_MAX_DESC_SIZE 4096
#define KEY_TYPE_NAME_MAX 32
#define USER_PAYLOAD_MAX 32767 /* user_preparse() */
#define ADD_KEY_PLEN_MAX (1024 * 1024 - 1)
#define UPDATE_PLEN_MAX 4096 /* keyctl_update_key(): PAGE_SIZE */
#define KEYQUOTA_LINK_BYTES 4
#define KEYRING_DEF_DATALEN 16 /* arm64's struct assoc_array */
#define KEYRING_DATALEN_MAX 65535 /* key->datalen is an unsigned short */
#define SEARCH_MAX_DEPTH 6    /* KEYRING_SEARCH_MAX_DEPTH */
#define SERIAL_START 0x10000001 /* the first serial; Linux's are random */

enum { KT_KEYRING, KT_USER, KT_LOGON, KT_COUNT };
static const char *const type_name[KT_COUNT] = {"keyring", "user", "logon"};

#define ALLOC_IN_QUOTA 0
#define ALLOC_OVERRUN 1 /* KEY_ALLOC_QUOTA_OVERRUN: charged, never refused */

struct key {
    struct key *next; /* the machine's keys, by serial */
    int32_t serial;
    int refs;
    int type;
    char *desc;
    uint32_t uid, gid, perm;
    uint8_t *payload; /* user and logon: kmem, datalen bytes */
    size_t datalen;   /* for a keyring: KEYQUOTA_LINK_BYTES a link */
    struct key **links;
    int nlinks, cap;
    uint64_t expiry_s; /* real-time seconds, 0: none */
    bool revoked, invalidated;
    size_t charged; /* bytes of its owner's quota it holds beyond datalen */
};

struct key_user {
    uint32_t uid;
    int nkeys, qnkeys;
    uint64_t qnbytes;
    struct key *uid_keyring, *session_keyring; /* look_up_user_keyrings() */
};

struct key_ns {
    struct key *keys, **tail;
    int32_t next_serial;
    struct key_user *users;
    int nusers;
};

static struct key_ns *ns_of(struct machine *m)
{
    if (!m->keys) {
        m->keys = calloc(1, sizeof *m->keys);
        if (!m->keys)
            return NULL;
        m->keys->tail = &m->keys->keys;
        m->keys->next_serial = SERIAL_START;
    }
    return m->keys;
}

static struct key_user *key_user(struct machine *m, uint32_t uid)
{
    struct key_ns *ns = ns_of(m);
    if (!ns)
        return NULL;
    for (int i = 0; i < ns->nusers; i++)
        if (ns->users[i].uid == uid)
            return &ns->users[i];
    struct key_user *u = realloc(ns->users, (size_t)(ns->nusers + 1) * sizeof *u);
    if (!u)
        return NULL;
    ns->users = u;
    u[ns->nusers] = (struct key_user){.uid = uid};
    return &u[ns->nusers++];
}

static uint64_t now_s(struct machine *m)
{
    return machine_realtime_ns(m) / 1000000000u;
}

/* ---- allocation, references, quota (key.c) ---- */

static void key_put(struct machine *m, struct key *k);

static void key_destroy(struct machine *m, struct key *k)
{
    struct key_ns *ns = m->keys;
    for (struct key **pp = &ns->keys; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            if (ns->tail == &k->next)
                ns->tail = pp;
            break;
        }
    struct key_user *u = key_user(m, k->uid);
    if (u) {
        u->nkeys--;
        u->qnkeys--;
        u->qnbytes -= k->charged + k->datalen;
    }
    for (int i = 0; i < k->nlinks; i++)
        key_put(m, k->links[i]);
    free(k->links);
    kmem_free(m, k->payload, k->type == KT_KEYRING ? 0 : k->datalen);
    kmem_free(m, k, sizeof *k + strlen(k->desc) + 1);
}

static void key_put(struct machine *m, struct key *k)
{
    if (k && --k->refs == 0)
        key_destroy(m, k);
}

/* /proc/sys/kernel/keys' quotas of uid: root's are root_maxkeys and
 * root_maxbytes (key_quota_*, unsigned). */
static unsigned max_keys(const struct machine *m, uint32_t uid)
{
    return (unsigned)(uid == 0 ? m->limits.key_root_maxkeys : m->limits.key_maxkeys);
}

static unsigned max_bytes(const struct machine *m, uint32_t uid)
{
    return (unsigned)(uid == 0 ? m->limits.key_root_maxbytes : m->limits.key_maxbytes);
}

/* key_alloc(): a key with one reference, its description and def_datalen
 * charged to uid's quota (root's limits are root_maxkeys/root_maxbytes). */
static int key_alloc(struct machine *m, int type, const char *desc, uint32_t uid, uint32_t gid,
                     uint32_t perm, int flags, struct key **out)
{
    struct key_ns *ns = ns_of(m);
    struct key_user *u = key_user(m, uid);
    if (!ns || !u)
        return -ENOMEM;
    size_t dlen = strlen(desc);
    size_t quotalen = dlen + 1 + (type == KT_KEYRING ? KEYRING_DEF_DATALEN : 0);
    if (!(flags & ALLOC_OVERRUN) &&
        ((unsigned)u->qnkeys + 1 > max_keys(m, uid) || u->qnbytes + quotalen > max_bytes(m, uid)))
        return -EDQUOT;
    struct key *k = kmem_alloc(m, sizeof *k + dlen + 1);
    if (!k)
        return -ENOMEM;
    *k = (struct key){.serial = ns->next_serial++, .refs = 1, .type = type, .uid = uid,
                      .gid = gid, .perm = perm, .charged = quotalen};
    k->desc = (char *)(k + 1);
    memcpy(k->desc, desc, dlen + 1);
    if (ns->next_serial <= 0)
        ns->next_serial = 3;
    *ns->tail = k;
    ns->tail = &k->next;
    u->nkeys++;
    u->qnkeys++;
    u->qnbytes += quotalen;
    *out = k;
    return 0;
}

/* key_payload_reserve(): the payload's size changes to datalen; an owner
 * past its maxbytes (root's: root_maxbytes) is EDQUOT. */
static int payload_reserve(struct machine *m, struct key *k, size_t datalen)
{
    struct key_user *u = key_user(m, k->uid);
    if (!u)
        return -ENOMEM;
    if (datalen > k->datalen && u->qnbytes + (datalen - k->datalen) > max_bytes(m, k->uid))
        return -EDQUOT;
    u->qnbytes = u->qnbytes - k->datalen + datalen;
    k->datalen = datalen;
    return 0;
}

/* user_update()/generic_key_instantiate(): a new payload (len > 0). */
static int set_payload(struct machine *m, struct key *k, const uint8_t *data, size_t len)
{
    uint8_t *p = kmem_alloc(m, len);
    if (!p)
        return -ENOMEM;
    size_t old = k->datalen;
    int err = payload_reserve(m, k, len);
    if (err) {
        kmem_free(m, p, len);
        return err;
    }
    memcpy(p, data, len);
    kmem_free(m, k->payload, old);
    k->payload = p;
    return 0;
}

static struct key *key_find(struct machine *m, int32_t id)
{
    for (struct key *k = m->keys ? m->keys->keys : NULL; k; k = k->next)
        if (k->serial == id)
            return k->invalidated ? NULL : k;
    return NULL;
}

/* key_validate() */
static int key_validate(struct machine *m, const struct key *k)
{
    if (k->invalidated)
        return -ENOKEY;
    if (k->revoked)
        return -EKEYREVOKED;
    if (k->expiry_s && now_s(m) >= k->expiry_s)
        return -EKEYEXPIRED;
    return 0;
}

/* key_task_permission(): the owner's, else the group's (if the key grants
 * any group right), else the others' rights, plus the possessor's when the
 * caller possesses the key. No override for root, as in Linux. */
static int key_permission(const struct task *t, const struct key *k, bool possessed, int need)
{
    if (need & (NEED_UNLINK | NEED_DEFER))
        return 0;
    const struct cred *c = &t->proc->cred;
    uint32_t kperm;
    if (k->uid == c->u.fs)
        kperm = k->perm >> 16 & 0xff;
    else if (k->gid != INVALID_ID && (k->perm & KEY_GRP_ALL) && cred_in_group(c, k->gid))
        kperm = k->perm >> 8 & 0xff;
    else
        kperm = k->perm & 0xff;
    if (possessed)
        kperm |= k->perm >> 24;
    return ((kperm & (uint32_t)need) == (uint32_t)need) ? 0 : -EACCES;
}

/* ---- keyrings (keyring.c) ---- */

static int link_index(const struct key *kr, const struct key *k)
{
    for (int i = 0; i < kr->nlinks; i++)
        if (kr->links[i]->type == k->type && strcmp(kr->links[i]->desc, k->desc) == 0)
            return i;
    return -1;
}

static bool reaches(const struct key *from, const struct key *to, int depth)
{
    if (from == to)
        return true;
    if (from->type != KT_KEYRING || depth > SEARCH_MAX_DEPTH)
        return false;
    for (int i = 0; i < from->nlinks; i++)
        if (reaches(from->links[i], to, depth + 1))
            return true;
    return false;
}

/* key_link(): a link to k in kr, replacing a link to a key of the same
 * type and description (the keyring's index); 4 bytes of kr's owner's
 * quota (KEYQUOTA_LINK_BYTES); a keyring may not come to contain itself
 * (keyring_detect_cycle(): EDEADLK). */
static int key_link(struct machine *m, struct key *kr, struct key *k)
{
    if (kr->type != KT_KEYRING)
        return -ENOTDIR;
    if (k->type == KT_KEYRING && reaches(k, kr, 0))
        return -EDEADLK;
    int i = link_index(kr, k);
    if (i >= 0) {
        if (kr->links[i] != k) {
            k->refs++;
            key_put(m, kr->links[i]);
            kr->links[i] = k;
        }
        return 0;
    }
    if (kr->datalen + KEYQUOTA_LINK_BYTES > KEYRING_DATALEN_MAX)
        return -ENFILE;
    if (kr->nlinks == kr->cap) {
        int cap = kr->cap ? kr->cap * 2 : 4;
        struct key **l = realloc(kr->links, (size_t)cap * sizeof *l);
        if (!l)
            return -ENOMEM;
        kr->links = l;
        kr->cap = cap;
    }
    int err = payload_reserve(m, kr, kr->datalen + KEYQUOTA_LINK_BYTES);
    if (err)
        return err;
    kr->links[kr->nlinks++] = k;
    k->refs++;
    return 0;
}

/* key_unlink(): ENOENT if kr does not hold k. */
static int key_unlink(struct machine *m, struct key *kr, struct key *k)
{
    if (kr->type != KT_KEYRING)
        return -ENOTDIR;
    for (int i = 0; i < kr->nlinks; i++)
        if (kr->links[i] == k) {
            memmove(&kr->links[i], &kr->links[i + 1], (size_t)(kr->nlinks - i - 1) * sizeof k);
            kr->nlinks--;
            payload_reserve(m, kr, kr->datalen - KEYQUOTA_LINK_BYTES);
            key_put(m, k);
            return 0;
        }
    return -ENOENT;
}

/* keyring_clear() */
static void keyring_clear(struct machine *m, struct key *kr)
{
    while (kr->nlinks)
        key_unlink(m, kr, kr->links[kr->nlinks - 1]);
}

/* The unlinking the garbage collector does for an invalidated key. */
static void unlink_everywhere(struct machine *m, struct key *k)
{
    k->refs++;
    for (struct key *kr = m->keys->keys; kr; kr = kr->next)
        if (kr->type == KT_KEYRING)
            while (key_unlink(m, kr, k) == 0)
                ;
    key_put(m, k);
}

/* ---- searching (keyring_search_rcu(), search_cred_keyrings_rcu()) ---- */

struct search {
    struct task *t;
    int type;
    const char *desc;
    const struct key *target; /* a search by identity (is_key_possessed()) */
    bool state_check;         /* KEYRING_SEARCH_DO_STATE_CHECK */
    bool possessed;
    uint64_t now;
    int result; /* -EAGAIN, or why a matching key was skipped */
};

/* keyring_search_iterator(): 1 if k is the one. */
static int search_match(struct search *s, struct key *k)
{
    if (s->target ? k != s->target : (k->type != s->type || strcmp(k->desc, s->desc) != 0))
        return 0;
    if (s->state_check) {
        if (k->invalidated || k->revoked) {
            s->result = -EKEYREVOKED;
            return 0;
        }
        if (k->expiry_s && s->now >= k->expiry_s) {
            s->result = -EKEYEXPIRED;
            return 0;
        }
    }
    if (key_permission(s->t, k, s->possessed, KEY_SEARCH) < 0) {
        s->result = -EACCES;
        return 0;
    }
    return 1;
}

/* search_nested_keyrings(): the top keyring itself, then kr's keys, then
 * the keyrings below that the caller may search, to SEARCH_MAX_DEPTH. */
static struct key *search_nested(struct search *s, struct key *kr, int depth)
{
    if (depth == 0 && search_match(s, kr))
        return kr;
    for (int i = 0; i < kr->nlinks; i++)
        if (search_match(s, kr->links[i]))
            return kr->links[i];
    if (depth >= SEARCH_MAX_DEPTH)
        return NULL;
    for (int i = 0; i < kr->nlinks; i++) {
        struct key *sub = kr->links[i];
        if (sub->type != KT_KEYRING || key_permission(s->t, sub, s->possessed, KEY_SEARCH) < 0)
            continue;
        if (s->state_check && (sub->revoked || sub->invalidated))
            continue;
        struct key *r = search_nested(s, sub, depth + 1);
        if (r)
            return r;
    }
    return NULL;
}

/* keyring_search_rcu(): the key, or NULL with s->result. */
static struct key *keyring_search(struct search *s, struct key *kr, bool possessed)
{
    s->possessed = possessed;
    s->result = -EAGAIN;
    if (kr->type != KT_KEYRING) {
        s->result = -ENOTDIR;
        return NULL;
    }
    if (key_permission(s->t, kr, possessed, KEY_SEARCH) < 0) {
        s->result = -EACCES;
        return NULL;
    }
    s->now = now_s(s->t->machine);
    return search_nested(s, kr, 0);
}

static struct key *user_session_if_any(struct task *t)
{
    struct key_ns *ns = t->machine->keys;
    for (int i = 0; ns && i < ns->nusers; i++)
        if (ns->users[i].uid == t->proc->cred.u.real)
            return ns->users[i].session_keyring;
    return NULL;
}

/* search_cred_keyrings_rcu(): the thread, process and session keyrings
 * (the user session keyring if there is no session keyring). Errors: the
 * last "no key" kind met (-EAGAIN when nothing matched), else another. */
static struct key *search_cred_keyrings(struct search *s, int *err)
{
    struct key *rings[3] = {s->t->thread_keyring, s->t->proc->process_keyring,
                            s->t->proc->session_keyring};
    if (!rings[2])
        rings[2] = user_session_if_any(s->t);
    int ret = 0, other = -EAGAIN;
    for (int i = 0; i < 3; i++) {
        if (!rings[i])
            continue;
        struct key *k = keyring_search(s, rings[i], true);
        if (k)
            return k;
        if (s->result == -EAGAIN || s->result == -EKEYREVOKED || s->result == -EKEYEXPIRED ||
            s->result == -ENOKEY)
            ret = s->result;
        else
            other = s->result;
    }
    *err = ret ? ret : other;
    return NULL;
}

/* is_key_possessed(): reachable from the caller's keyrings through
 * keyrings it may search. */
static bool is_possessed(struct task *t, const struct key *k)
{
    struct search s = {.t = t, .target = k};
    int err;
    return search_cred_keyrings(&s, &err) != NULL;
}

/* ---- the caller's keyrings (process_keys.c) ---- */

/* look_up_user_keyrings(): "_uid.UID" and "_uid_ses.UID", which links it,
 * made at first use for the caller's real uid. */
static int user_keyrings(struct task *t, struct key **uid_kr, struct key **ses_kr)
{
    struct machine *m = t->machine;
    uint32_t uid = t->proc->cred.u.real;
    struct key_user *u = key_user(m, uid);
    if (!u)
        return -ENOMEM;
    /* user_keyring_perm: the possessor may not SETATTR them */
    uint32_t perm = KEY_POS(KEY_ALL & ~KEY_SETATTR) | KEY_USR(KEY_ALL);
    char name[32];
    if (!u->uid_keyring) {
        snprintf(name, sizeof name, "_uid.%u", uid);
        struct key *k;
        int err = key_alloc(m, KT_KEYRING, name, uid, INVALID_ID, perm, ALLOC_IN_QUOTA, &k);
        if (err)
            return err;
        u = key_user(m, uid); /* key_alloc may move the table */
        u->uid_keyring = k;
    }
    if (!u->session_keyring) {
        snprintf(name, sizeof name, "_uid_ses.%u", uid);
        struct key *k;
        int err = key_alloc(m, KT_KEYRING, name, uid, INVALID_ID, perm, ALLOC_IN_QUOTA, &k);
        if (err)
            return err;
        u = key_user(m, uid);
        err = key_link(m, k, u->uid_keyring);
        if (err) {
            key_put(m, k);
            return err;
        }
        u->session_keyring = k;
    }
    if (uid_kr)
        *uid_kr = u->uid_keyring;
    if (ses_kr)
        *ses_kr = u->session_keyring;
    return 0;
}

/* install_thread_keyring_to_cred(), install_process_keyring_to_cred(),
 * install_session_keyring_to_cred(NULL): a new anonymous keyring. */
static int new_own_keyring(struct task *t, const char *name, uint32_t perm, struct key **slot)
{
    struct key *k;
    const struct cred *c = &t->proc->cred;
    int err = key_alloc(t->machine, KT_KEYRING, name, c->u.real, c->g.real, perm, ALLOC_OVERRUN, &k);
    if (err)
        return err;
    key_put(t->machine, *slot);
    *slot = k;
    return 0;
}

static int install_thread_keyring(struct task *t)
{
    if (t->thread_keyring)
        return 0;
    return new_own_keyring(t, "_tid", KEY_POS(KEY_ALL) | KEY_USR(KEY_VIEW), &t->thread_keyring);
}

static int install_process_keyring(struct task *t)
{
    if (t->proc->process_keyring)
        return 0;
    return new_own_keyring(t, "_pid", KEY_POS(KEY_ALL) | KEY_USR(KEY_VIEW),
                           &t->proc->process_keyring);
}

/* find_keyring_by_name(): the oldest keyring of that name, not revoked,
 * that the caller may search without possessing it. */
static struct key *find_keyring_by_name(struct task *t, const char *name)
{
    for (struct key *k = t->machine->keys ? t->machine->keys->keys : NULL; k; k = k->next)
        if (k->type == KT_KEYRING && !k->revoked && !k->invalidated && strcmp(k->desc, name) == 0 &&
            name[0] != '.' && key_permission(t, k, false, KEY_SEARCH) == 0)
            return k;
    return NULL;
}

/* join_session_keyring(): a new anonymous "_ses" keyring, or the named
 * one (made if none the caller may search exists); its serial. */
static int64_t join_session(struct task *t, const char *name)
{
    struct process *p = t->proc;
    if (!name) {
        int err = new_own_keyring(t, "_ses", KEY_POS(KEY_ALL) | KEY_USR(KEY_VIEW | KEY_READ),
                                  &p->session_keyring);
        return err ? err : p->session_keyring->serial;
    }
    struct key *k = find_keyring_by_name(t, name);
    if (k == p->session_keyring && k)
        return 0; /* join_session_keyring(): already joined */
    if (k) {
        k->refs++;
    } else {
        int err = key_alloc(t->machine, KT_KEYRING, name, p->cred.u.real, p->cred.g.real,
                            KEY_POS(KEY_ALL) | KEY_USR(KEY_VIEW | KEY_READ | KEY_LINK),
                            ALLOC_IN_QUOTA, &k);
        if (err)
            return err;
    }
    key_put(t->machine, p->session_keyring);
    p->session_keyring = k;
    return k->serial;
}

/* lookup_user_key(): a special id (made with LOOKUP_CREATE, possessed) or
 * a serial (possessed if reachable), validated (key_validate()) unless the
 * caller defers, and checked for the rights in need. */
static int lookup_key(struct task *t, int64_t id64, int lflags, int need, struct key **out,
                      bool *possessed)
{
    struct process *p = t->proc;
    struct key *k = NULL;
    bool poss = true;
    int err = 0;
    int32_t id = (int32_t)id64;
    switch (id) {
    case KEY_SPEC_THREAD_KEYRING:
        if (!t->thread_keyring && !(lflags & LOOKUP_CREATE))
            return -ENOKEY;
        err = install_thread_keyring(t);
        k = t->thread_keyring;
        break;
    case KEY_SPEC_PROCESS_KEYRING:
        if (!p->process_keyring && !(lflags & LOOKUP_CREATE))
            return -ENOKEY;
        err = install_process_keyring(t);
        k = p->process_keyring;
        break;
    case KEY_SPEC_SESSION_KEYRING:
        if (!p->session_keyring) {
            struct key *us;
            err = user_keyrings(t, NULL, &us);
            if (err)
                return err;
            if (lflags & LOOKUP_CREATE) {
                int64_t r = join_session(t, NULL);
                err = r < 0 ? (int)r : 0;
            } else {
                us->refs++;
                p->session_keyring = us;
            }
        }
        k = p->session_keyring;
        break;
    case KEY_SPEC_USER_KEYRING:
        err = user_keyrings(t, &k, NULL);
        break;
    case KEY_SPEC_USER_SESSION_KEYRING:
        err = user_keyrings(t, NULL, &k);
        break;
    case KEY_SPEC_GROUP_KEYRING:
        return -EINVAL; /* group keyrings are not supported */
    case KEY_SPEC_REQKEY_AUTH_KEY:
    case KEY_SPEC_REQUESTOR_KEYRING:
        return -ENOKEY; /* no request_key authorisation in force */
    default:
        if (id < 1)
            return -EINVAL;
        k = key_find(t->machine, id);
        if (!k)
            return -ENOKEY;
        poss = is_possessed(t, k);
        break;
    }
    if (err)
        return err;
    if (!(need & (NEED_UNLINK | NEED_DEFER))) {
        err = key_validate(t->machine, k);
        if (!err)
            err = key_permission(t, k, poss, need);
        if (err)
            return err;
    }
    *out = k;
    if (possessed)
        *possessed = poss;
    return 0;
}

/* ---- process life ---- */

void keys_fork(struct process *child, const struct process *parent)
{
    child->session_keyring = parent->session_keyring;
    if (child->session_keyring)
        child->session_keyring->refs++;
    child->process_keyring = NULL;
}

void keys_clone_task(struct task *c, struct task *t, bool thread)
{
    c->reqkey_defl = t->reqkey_defl;
    if (thread && t->thread_keyring)
        install_thread_keyring(c); /* Linux ignores its failure too */
}

void keys_exec(struct task *t)
{
    key_put(t->machine, t->thread_keyring);
    t->thread_keyring = NULL;
    key_put(t->machine, t->proc->process_keyring);
    t->proc->process_keyring = NULL;
}

void keys_process_exit(struct process *p)
{
    key_put(p->machine, p->session_keyring);
    key_put(p->machine, p->process_keyring);
    p->session_keyring = p->process_keyring = NULL;
}

void keys_task_free(struct task *t)
{
    key_put(t->machine, t->thread_keyring);
    t->thread_keyring = NULL;
}

void keys_free_all(struct machine *m)
{
    struct key_ns *ns = m->keys;
    if (!ns)
        return;
    /* Free what is left without following links; a task or process the
     * shutdown could not reap keeps no pointer to a freed key. */
    for (struct task *t = m->tasks; t; t = t->next_all) {
        t->thread_keyring = NULL;
        t->proc->session_keyring = t->proc->process_keyring = NULL;
    }
    while (ns->keys) {
        struct key *k = ns->keys;
        ns->keys = k->next;
        free(k->links);
        kmem_free(m, k->payload, k->type == KT_KEYRING ? 0 : k->datalen);
        kmem_free(m, k, sizeof *k + strlen(k->desc) + 1);
    }
    free(ns->users);
    free(ns);
    m->keys = NULL;
}

/* ---- copying in ---- */

/* key_get_type_from_user() */
static int get_type(struct task *t, uint64_t addr, char *buf)
{
    int64_t r = strncpy_from_guest(task_mm(t), buf, addr, KEY_TYPE_NAME_MAX);
    if (r == -ENAMETOOLONG || r == 0)
        return -EINVAL;
    if (r < 0)
        return (int)r;
    return buf[0] == '.' ? -EPERM : 0;
}

static int type_lookup(const char *name)
{
    for (int i = 0; i < KT_COUNT; i++)
        if (strcmp(type_name[i], name) == 0)
            return i;
    return -ENOKEY; /* key_type_lookup(); add_key makes it ENODEV */
}

/* strndup_user(addr, KEY_MAX_DESC_SIZE) */
static int get_desc(struct task *t, uint64_t addr, char *buf)
{
    int64_t r = strncpy_from_guest(task_mm(t), buf, addr, KEY_MAX_DESC_SIZE);
    if (r == -ENAMETOOLONG)
        return -EINVAL;
    return r < 0 ? (int)r : 0;
}

static int get_payload(struct task *t, uint64_t addr, uint64_t len, uint8_t **out)
{
    *out = NULL;
    if (!len)
        return 0;
    *out = malloc(len);
    if (!*out)
        return -ENOMEM;
    if (copy_from_guest(task_mm(t), *out, addr, len) < 0) {
        free(*out);
        *out = NULL;
        return -EFAULT;
    }
    return 0;
}

/* user_preparse(), logon_vet_description(), keyring_preparse() */
static int preparse(int type, const char *desc, const uint8_t *data, uint64_t len)
{
    if (type == KT_KEYRING)
        return len ? -EINVAL : 0;
    if (!len || len > USER_PAYLOAD_MAX || !data)
        return -EINVAL;
    if (type == KT_LOGON && desc) {
        const char *colon = strchr(desc, ':');
        if (!colon || colon == desc)
            return -EINVAL;
    }
    return 0;
}

/* ---- add_key (key_create_or_update()) ---- */

static int64_t create_or_update(struct task *t, struct key *kr, bool kr_poss, const char *tname,
                                const char *desc, const uint8_t *data, uint64_t len)
{
    struct machine *m = t->machine;
    int type = type_lookup(tname);
    if (type < 0)
        return -ENODEV;
    if (kr->type != KT_KEYRING)
        return -ENOTDIR;
    if (type == KT_LOGON && !desc)
        return -EINVAL;
    int err = preparse(type, desc, data, len);
    if (err)
        return err;
    if (!desc)
        return -EINVAL;
    if (type != KT_KEYRING) { /* find_key_to_update(): the type has an update method */
        for (int i = 0; i < kr->nlinks; i++) {
            struct key *k = kr->links[i];
            if (k->type != type || strcmp(k->desc, desc) != 0 || k->revoked || k->invalidated)
                continue;
            err = key_permission(t, k, kr_poss, KEY_WRITE);
            if (!err)
                err = set_payload(m, k, data, len);
            return err ? err : k->serial;
        }
    }
    /* the default permissions of key_create_or_update() */
    uint32_t perm = KEY_POS(KEY_VIEW | KEY_SEARCH | KEY_LINK | KEY_SETATTR | KEY_WRITE) |
                    KEY_USR(KEY_VIEW);
    if (type != KT_LOGON)
        perm |= KEY_POS(KEY_READ);
    const struct cred *c = &t->proc->cred;
    struct key *k;
    err = key_alloc(m, type, desc, c->u.fs, c->g.fs, perm, ALLOC_IN_QUOTA, &k);
    if (err)
        return err;
    if (type != KT_KEYRING)
        err = set_payload(m, k, data, len);
    if (!err)
        err = key_link(m, kr, k);
    int32_t serial = k->serial;
    key_put(m, k); /* the keyring's link holds it now */
    return err ? err : serial;
}

SYSCALL_DECL(add_key)
{
    char tname[KEY_TYPE_NAME_MAX];
    char desc[KEY_MAX_DESC_SIZE];
    if (a[3] > ADD_KEY_PLEN_MAX)
        return -EINVAL;
    int err = get_type(t, a[0], tname);
    if (err)
        return err;
    bool has_desc = false;
    if (a[1]) {
        if ((err = get_desc(t, a[1], desc)))
            return err;
        has_desc = desc[0] != 0;
        if (has_desc && desc[0] == '.' && strncmp(tname, "keyring", 7) == 0)
            return -EPERM;
    }
    uint8_t *data;
    if ((err = get_payload(t, a[2], a[3], &data)))
        return err;
    struct key *kr;
    bool poss;
    int64_t r = lookup_key(t, (int64_t)a[4], LOOKUP_CREATE, KEY_WRITE, &kr, &poss);
    if (r == 0)
        r = create_or_update(t, kr, poss, tname, has_desc ? desc : NULL, data, a[3]);
    free(data);
    return r;
}

/* ---- request_key (request_key_and_link(), without an upcall) ---- */

SYSCALL_DECL(request_key)
{
    char tname[KEY_TYPE_NAME_MAX];
    char desc[KEY_MAX_DESC_SIZE];
    int err = get_type(t, a[0], tname);
    if (err)
        return err;
    if ((err = get_desc(t, a[1], desc)))
        return err;
    bool callout = a[2] != 0;
    if (callout) {
        char info[KEY_MAX_DESC_SIZE];
        if ((err = get_desc(t, a[2], info)))
            return err;
    }
    struct key *dest = NULL;
    if ((int32_t)a[3] && (err = lookup_key(t, (int64_t)a[3], LOOKUP_CREATE, KEY_WRITE, &dest, NULL)))
        return err;
    int type = type_lookup(tname);
    if (type < 0)
        return type;
    struct search s = {.t = t, .type = type, .desc = desc, .state_check = true};
    struct key *k = search_cred_keyrings(&s, &err);
    if (!k) {
        if (err != -EAGAIN)
            return err;
        /* construct_key_and_link(): a keyring is never made by upcall;
         * asymu has no /sbin/request-key to run */
        return callout && type == KT_KEYRING ? -EPERM : -ENOKEY;
    }
    if (dest && (err = key_link(t->machine, dest, k)))
        return err;
    return k->serial;
}

/* ---- keyctl ---- */

/* keyctl_describe_key(): "type;uid;gid;perm;description" and its NUL. */
static int64_t kc_describe(struct task *t, const uint64_t *a)
{
    struct key *k;
    bool poss;
    int err = lookup_key(t, (int64_t)a[1], LOOKUP_PARTIAL, KEY_VIEW, &k, &poss);
    if (err)
        return err;
    char info[96];
    int n = snprintf(info, sizeof info, "%s;%d;%d;%08x;", type_name[k->type],
                     k->uid == INVALID_ID ? OVERFLOW_ID : (int)k->uid,
                     k->gid == INVALID_ID ? OVERFLOW_ID : (int)k->gid, k->perm);
    size_t dl = strlen(k->desc);
    size_t len = (size_t)n + dl + 1;
    if (a[2] && a[3] >= len) {
        if (copy_to_guest(task_mm(t), a[2], info, (size_t)n) < 0 ||
            copy_to_guest(task_mm(t), a[2] + (uint64_t)n, k->desc, dl + 1) < 0)
            return -EFAULT;
    }
    return (int64_t)len;
}

/* keyctl_read_key(): the payload, or a keyring's serials; the full size,
 * copied only when the buffer holds it all (5.15's read methods copy
 * nothing into a short buffer). Possession stands for READ. */
static int64_t kc_read(struct task *t, const uint64_t *a)
{
    struct key *k;
    bool poss;
    int err = lookup_key(t, (int64_t)a[1], 0, NEED_DEFER, &k, &poss);
    if (err)
        return err;
    err = key_permission(t, k, poss, KEY_READ);
    if (err && !poss)
        return -EACCES;
    if (k->type == KT_LOGON)
        return -EOPNOTSUPP;
    if ((err = key_validate(t->machine, k)))
        return err;
    size_t len = k->type == KT_KEYRING ? (size_t)k->nlinks * 4 : k->datalen;
    if (a[2] && a[3] && len <= a[3]) {
        if (k->type == KT_KEYRING) {
            for (int i = 0; i < k->nlinks; i++)
                if (copy_to_guest(task_mm(t), a[2] + 4u * (uint64_t)i, &k->links[i]->serial, 4) < 0)
                    return -EFAULT;
        } else if (copy_to_guest(task_mm(t), a[2], k->payload, len) < 0) {
            return -EFAULT;
        }
    }
    return (int64_t)len;
}

static int64_t kc_update(struct task *t, const uint64_t *a)
{
    if (a[3] > UPDATE_PLEN_MAX)
        return -EINVAL;
    uint8_t *data;
    int err = get_payload(t, a[2], a[3], &data);
    if (err)
        return err;
    struct key *k;
    err = lookup_key(t, (int64_t)a[1], 0, KEY_WRITE, &k, NULL);
    if (!err && k->type == KT_KEYRING)
        err = -EOPNOTSUPP; /* no update method */
    if (!err)
        err = preparse(k->type, NULL, data, a[3]);
    if (!err)
        err = set_payload(t->machine, k, data, a[3]);
    free(data);
    return err;
}

/* keyctl_revoke_key(): WRITE, or failing that SETATTR. A revoked keyring
 * loses its links, a user key its payload (user_revoke()). */
static int64_t kc_revoke(struct task *t, const uint64_t *a)
{
    struct key *k;
    int err = lookup_key(t, (int64_t)a[1], 0, KEY_WRITE, &k, NULL);
    if (err == -EACCES)
        err = lookup_key(t, (int64_t)a[1], 0, KEY_SETATTR, &k, NULL);
    if (err)
        return err;
    k->revoked = true;
    if (k->type == KT_KEYRING) {
        keyring_clear(t->machine, k);
    } else {
        kmem_free(t->machine, k->payload, k->datalen);
        k->payload = NULL;
        payload_reserve(t->machine, k, 0);
    }
    return 0;
}

static int64_t kc_chown(struct task *t, const uint64_t *a)
{
    uint32_t uid = (uint32_t)a[2], gid = (uint32_t)a[3];
    if (uid == INVALID_ID && gid == INVALID_ID)
        return 0;
    struct key *k;
    int err = lookup_key(t, (int64_t)a[1], LOOKUP_CREATE | LOOKUP_PARTIAL, KEY_SETATTR, &k, NULL);
    if (err)
        return err;
    const struct cred *c = &t->proc->cred;
    bool admin = c->u.eff == 0 /* CAP_SYS_ADMIN */;
    if (!admin) {
        if (uid != INVALID_ID && k->uid != uid)
            return -EACCES;
        if (gid != INVALID_ID && (gid != k->gid) && (k->uid != c->u.fs || !cred_in_group(c, gid)))
            return -EACCES;
    }
    if (uid != INVALID_ID && uid != k->uid) { /* the quota moves to the new owner */
        struct key_user *nu = key_user(t->machine, uid);
        if (!nu)
            return -ENOMEM;
        size_t bytes = k->charged + k->datalen;
        if ((unsigned)nu->qnkeys + 1 > max_keys(t->machine, uid) ||
            nu->qnbytes + bytes > max_bytes(t->machine, uid))
            return -EDQUOT;
        nu->nkeys++;
        nu->qnkeys++;
        nu->qnbytes += bytes;
        struct key_user *ou = key_user(t->machine, k->uid);
        ou->nkeys--;
        ou->qnkeys--;
        ou->qnbytes -= bytes;
        k->uid = uid;
    }
    if (gid != INVALID_ID)
        k->gid = gid;
    return 0;
}

static int64_t kc_setperm(struct task *t, const uint64_t *a)
{
    uint32_t perm = (uint32_t)a[2];
    if (a[2] & ~(uint64_t)PERM_VALID)
        return -EINVAL;
    struct key *k;
    int err = lookup_key(t, (int64_t)a[1], LOOKUP_CREATE | LOOKUP_PARTIAL, KEY_SETATTR, &k, NULL);
    if (err)
        return err;
    if (t->proc->cred.u.eff != 0 /* CAP_SYS_ADMIN */ && k->uid != t->proc->cred.u.fs)
        return -EACCES;
    k->perm = perm;
    return 0;
}

static int64_t kc_link(struct task *t, const uint64_t *a, bool unlink)
{
    struct key *kr, *k;
    int err = lookup_key(t, (int64_t)a[2], unlink ? 0 : LOOKUP_CREATE, KEY_WRITE, &kr, NULL);
    if (err)
        return err;
    err = lookup_key(t, (int64_t)a[1], unlink ? LOOKUP_PARTIAL : LOOKUP_CREATE,
                     unlink ? NEED_UNLINK : KEY_LINK, &k, NULL);
    if (err)
        return err;
    return unlink ? key_unlink(t->machine, kr, k) : key_link(t->machine, kr, k);
}

/* keyctl_keyring_move() */
static int64_t kc_move(struct task *t, const uint64_t *a)
{
    if (a[4] & ~1ull)
        return -EINVAL;
    struct key *k, *from, *to;
    int err = lookup_key(t, (int64_t)a[1], LOOKUP_CREATE | LOOKUP_PARTIAL, KEY_LINK, &k, NULL);
    if (!err)
        err = lookup_key(t, (int64_t)a[2], 0, KEY_WRITE, &from, NULL);
    if (!err)
        err = lookup_key(t, (int64_t)a[3], LOOKUP_CREATE, KEY_WRITE, &to, NULL);
    if (err)
        return err;
    if (from == to)
        return 0;
    if (from->type != KT_KEYRING || to->type != KT_KEYRING)
        return -ENOTDIR;
    int i;
    for (i = 0; i < from->nlinks && from->links[i] != k; i++)
        ;
    if (i == from->nlinks)
        return -ENOENT;
    if ((a[4] & 1) && link_index(to, k) >= 0)
        return -EEXIST; /* KEYCTL_MOVE_EXCL */
    if ((err = key_link(t->machine, to, k)))
        return err;
    return key_unlink(t->machine, from, k);
}

static int64_t kc_search(struct task *t, const uint64_t *a)
{
    char tname[KEY_TYPE_NAME_MAX];
    char desc[KEY_MAX_DESC_SIZE];
    int err = get_type(t, a[2], tname);
    if (err)
        return err;
    if ((err = get_desc(t, a[3], desc)))
        return err;
    struct key *kr, *dest = NULL;
    bool poss;
    if ((err = lookup_key(t, (int64_t)a[1], 0, KEY_SEARCH, &kr, &poss)))
        return err;
    if ((int32_t)a[4] && (err = lookup_key(t, (int64_t)a[4], LOOKUP_CREATE, KEY_WRITE, &dest, NULL)))
        return err;
    int type = type_lookup(tname);
    if (type < 0)
        return type;
    struct search s = {.t = t, .type = type, .desc = desc, .state_check = true};
    struct key *k = keyring_search(&s, kr, poss);
    if (!k)
        return s.result == -EAGAIN ? -ENOKEY : s.result;
    if (dest) {
        if ((err = key_permission(t, k, poss, KEY_LINK)))
            return err;
        if ((err = key_link(t->machine, dest, k)))
            return err;
    }
    return k->serial;
}

static int64_t kc_set_reqkey(struct task *t, int64_t v)
{
    int old = t->reqkey_defl;
    if (v == KEY_REQKEY_DEFL_NO_CHANGE)
        return old;
    if (v < 0 || v > KEY_REQKEY_DEFL_REQUESTOR_KEYRING || v == KEY_REQKEY_DEFL_GROUP_KEYRING)
        return -EINVAL;
    int err = 0;
    if (v == KEY_REQKEY_DEFL_THREAD_KEYRING)
        err = install_thread_keyring(t);
    else if (v == KEY_REQKEY_DEFL_PROCESS_KEYRING)
        err = install_process_keyring(t);
    if (err)
        return err;
    t->reqkey_defl = (int)v;
    return old;
}

/* keyctl_session_to_parent(), done at once: the parent, of the same
 * owner, takes the caller's session keyring. */
static int64_t kc_session_to_parent(struct task *t)
{
    struct key *ses;
    int err = lookup_key(t, KEY_SPEC_SESSION_KEYRING, 0, KEY_LINK, &ses, NULL);
    if (err)
        return err;
    struct process *pp = t->proc->parent;
    if (!pp || pp->zombie || pp->pid == 1)
        return -EPERM;
    const struct cred *me = &t->proc->cred, *pc = &pp->cred;
    if (pc->u.real != me->u.eff || pc->u.eff != me->u.eff || pc->u.saved != me->u.eff ||
        pc->g.real != me->g.eff || pc->g.eff != me->g.eff || pc->g.saved != me->g.eff)
        return -EPERM;
    if ((pp->session_keyring && pp->session_keyring->uid != me->u.eff) || ses->uid != me->u.eff)
        return -EPERM;
    ses->refs++;
    key_put(t->machine, pp->session_keyring);
    pp->session_keyring = ses;
    return 0;
}

SYSCALL_DECL(keyctl)
{
    struct key *k;
    int err;
    switch ((int)a[0]) {
    case 0: /* KEYCTL_GET_KEYRING_ID */
        err = lookup_key(t, (int64_t)a[1], a[2] ? LOOKUP_CREATE : 0, NEED_DEFER, &k, NULL);
        return err ? err : k->serial;
    case 1: { /* KEYCTL_JOIN_SESSION_KEYRING */
        char name[KEY_MAX_DESC_SIZE];
        if (a[1] && (err = get_desc(t, a[1], name)))
            return err;
        return join_session(t, a[1] ? name : NULL);
    }
    case 2:
        return kc_update(t, a);
    case 3:
        return kc_revoke(t, a);
    case 4:
        return kc_chown(t, a);
    case 5:
        return kc_setperm(t, a);
    case 6:
        return kc_describe(t, a);
    case 7: /* KEYCTL_CLEAR */
        err = lookup_key(t, (int64_t)a[1], LOOKUP_CREATE, KEY_WRITE, &k, NULL);
        if (err)
            return err;
        if (k->type != KT_KEYRING)
            return -ENOTDIR;
        keyring_clear(t->machine, k);
        return 0;
    case 8:
        return kc_link(t, a, false);
    case 9:
        return kc_link(t, a, true);
    case 10:
        return kc_search(t, a);
    case 11:
        return kc_read(t, a);
    case 12: /* KEYCTL_INSTANTIATE */
    case 13: /* KEYCTL_NEGATE */
    case 19: /* KEYCTL_REJECT */
    case 20: /* KEYCTL_INSTANTIATE_IOV: no authorisation key is ever in force */
        return -EPERM;
    case 14:
        return kc_set_reqkey(t, (int32_t)a[1]);
    case 15: /* KEYCTL_SET_TIMEOUT */
        err = lookup_key(t, (int64_t)a[1], LOOKUP_CREATE | LOOKUP_PARTIAL, KEY_SETATTR, &k, NULL);
        if (err)
            return err;
        k->expiry_s = (uint32_t)a[2] ? now_s(t->machine) + (uint32_t)a[2] : 0;
        return 0;
    case 16: /* KEYCTL_ASSUME_AUTHORITY */
        if ((int32_t)a[1] < 0)
            return -EINVAL;
        return (int32_t)a[1] == 0 ? 0 : -ENOKEY;
    case 17: { /* KEYCTL_GET_SECURITY: no LSM, an empty label */
        err = lookup_key(t, (int64_t)a[1], 0, KEY_VIEW, &k, NULL);
        if (err)
            return err;
        if (a[2] && a[3] && copy_to_guest(task_mm(t), a[2], "", 1) < 0)
            return -EFAULT;
        return 1;
    }
    case 18:
        return kc_session_to_parent(t);
    case 21: /* KEYCTL_INVALIDATE */
        err = lookup_key(t, (int64_t)a[1], 0, KEY_SEARCH, &k, NULL);
        if (err)
            return err;
        k->invalidated = true;
        unlink_everywhere(t->machine, k);
        return 0;
    case 30:
        return kc_move(t, a);
    case 31: { /* KEYCTL_CAPABILITIES: CAPABILITIES, INVALIDATE, MOVE */
        uint8_t caps[2] = {0x01 | 0x20 | 0x80, 0};
        if (a[1] && a[2] &&
            copy_to_guest(task_mm(t), a[1], caps, a[2] < sizeof caps ? a[2] : sizeof caps) < 0)
            return -EFAULT;
        return sizeof caps;
    }
    case 22: /* KEYCTL_GET_PERSISTENT: as without CONFIG_PERSISTENT_KEYRINGS */
    case 23: /* KEYCTL_DH_COMPUTE: as without CONFIG_KEY_DH_OPERATIONS */
    case 24: /* KEYCTL_PKEY_QUERY .. VERIFY: no asymmetric key type */
    case 25:
    case 26:
    case 27:
    case 28:
    case 29: /* KEYCTL_RESTRICT_KEYRING: no restriction schemes here */
    case 32: /* KEYCTL_WATCH_KEY: as without CONFIG_KEY_NOTIFICATIONS */
    default:
        return -EOPNOTSUPP;
    }
}

/* ---- /proc ---- */

/* proc_keys_show(): the keys the caller may view, by serial. */
static void proc_keys(struct task *t, FILE *out)
{
    uint64_t now = now_s(t->machine);
    for (struct key *k = t->machine->keys ? t->machine->keys->keys : NULL; k; k = k->next) {
        if (k->invalidated || key_permission(t, k, is_possessed(t, k), KEY_VIEW) < 0)
            continue;
        char x[24];
        if (!k->expiry_s) {
            snprintf(x, sizeof x, "perm");
        } else if (now >= k->expiry_s) {
            snprintf(x, sizeof x, "expd");
        } else {
            uint64_t s = k->expiry_s - now;
            if (s < 60)
                snprintf(x, sizeof x, "%llus", (unsigned long long)s);
            else if (s < 3600)
                snprintf(x, sizeof x, "%llum", (unsigned long long)(s / 60));
            else if (s < 86400)
                snprintf(x, sizeof x, "%lluh", (unsigned long long)(s / 3600));
            else if (s < 604800)
                snprintf(x, sizeof x, "%llud", (unsigned long long)(s / 86400));
            else
                snprintf(x, sizeof x, "%lluw", (unsigned long long)(s / 604800));
        }
        fprintf(out, "%08x I%c-Q--%c %5d %4s %08x %5d %5d %-9.9s ", (unsigned)k->serial,
                k->revoked ? 'R' : '-', k->invalidated ? 'i' : '-', k->refs, x, k->perm,
                k->uid == INVALID_ID ? OVERFLOW_ID : (int)k->uid,
                k->gid == INVALID_ID ? OVERFLOW_ID : (int)k->gid, type_name[k->type]);
        if (k->type == KT_KEYRING) {
            fputs(k->desc, out);
            if (k->nlinks)
                fprintf(out, ": %d", k->nlinks);
            else
                fputs(": empty", out);
        } else {
            fprintf(out, "%s: %zu", k->desc, k->datalen); /* user_describe() */
        }
        fputc('\n', out);
    }
}

/* proc_key_users_show(): usage is asymu's count of the user's keys. */
static void proc_key_users(struct machine *m, FILE *out)
{
    struct key_ns *ns = m->keys;
    for (int i = 0; ns && i < ns->nusers; i++) {
        const struct key_user *u = &ns->users[i];
        fprintf(out, "%5u: %5d %d/%d %d/%d %llu/%d\n", u->uid, u->nkeys, u->nkeys, u->nkeys,
                u->qnkeys, (int)max_keys(m, u->uid), (unsigned long long)u->qnbytes,
                (int)max_bytes(m, u->uid));
    }
}

int keys_proc_file(struct task *t, const char *name, char **data, size_t *size)
{
    int which = strcmp(name, "keys") == 0 ? 0 : strcmp(name, "key-users") == 0 ? 1 : -1;
    if (which < 0)
        return -ENOENT;
    FILE *out = open_memstream(data, size);
    if (!out)
        return -ENOMEM;
    if (which == 0)
        proc_keys(t, out);
    else
        proc_key_users(t->machine, out);
    if (fclose(out) != 0) {
        free(*data);
        *data = NULL;
        return -ENOMEM;
    }
    return 0;
}
