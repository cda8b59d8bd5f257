/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_filter.c - event filters (trace_filter.h): a recursive-descent
 * parse of 5.15's filter grammar into a small tree, with the kernel's
 * error texts and the place it reports them at for the errors of a
 * predicate (parse_pred()), and its evaluation on a record's bytes
 * (filter_match_preds()). */
#include "trace_filter.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one filter may hold: Linux allows MAX_FILTER_PRED (16384) terms; a
 * guest's filter is kept far smaller, the write (a page at most) bounding
 * it anyway. MAX_FILTER_STR_VAL: a string operand's bytes. */
#define PREDS_MAX 64
#define STR_MAX 256

/* The errors of 5.15 (ERRORS in trace_events_filter.c) asymu reports. */
enum filt_err {
    E_INVALID_OP = 1,
    E_TOO_MANY_OPEN,
    E_TOO_MANY_CLOSE,
    E_MISSING_QUOTE,
    E_OPERAND_TOO_LONG,
    E_EXPECT_STRING,
    E_EXPECT_DIGIT,
    E_ILLEGAL_FIELD_OP,
    E_FIELD_NOT_FOUND,
    E_ILLEGAL_INTVAL,
    E_TOO_MANY_PREDS,
    E_INVALID_FILTER,
    E_INVALID_VALUE,
};

static const char *const err_text[] = {
    [E_INVALID_OP] = "Illegal operation for field type",
    [E_TOO_MANY_OPEN] = "Too many '('",
    [E_TOO_MANY_CLOSE] = "Too few '('",
    [E_MISSING_QUOTE] = "Missing matching quote",
    [E_OPERAND_TOO_LONG] = "Operand too long",
    [E_EXPECT_STRING] = "Expecting string field",
    [E_EXPECT_DIGIT] = "Expecting numeric field",
    [E_ILLEGAL_FIELD_OP] = "Illegal operation for field type",
    [E_FIELD_NOT_FOUND] = "Field not found",
    [E_ILLEGAL_INTVAL] = "Illegal integer value",
    [E_TOO_MANY_PREDS] = "Too many terms in predicate expression",
    [E_INVALID_FILTER] = "Meaningless filter expression",
    [E_INVALID_VALUE] = "Invalid value (did you forget quotes)?",
};

/* The ops in the order parse_pred() tries them ("<=" before "<"). */
enum op { OP_GLOB, OP_NE, OP_EQ, OP_LE, OP_LT, OP_GE, OP_GT, OP_BAND, OP_COUNT };
static const char *const ops[OP_COUNT] = {"~", "!=", "==", "<=", "<", ">=", ">", "&"};

enum ftype { T_NUM, T_STR, T_DLOC };

struct field {
    enum ftype type;
    unsigned off, size;
    bool is_signed;
};

enum nkind { N_PRED, N_AND, N_OR, N_NOT };

struct node {
    enum nkind kind;
    int l, r;
    struct field f;
    enum op op;
    uint64_t val;
    char *str;
};

struct trace_filter {
    struct node n[PREDS_MAX * 2];
    int count, root;
};

struct parser {
    const struct event_format *e;
    const char *s;
    size_t i;
    enum filt_err err;
    size_t errpos;
    int preds;
    struct trace_filter *f;
};

static int fail(struct parser *p, enum filt_err err, size_t pos)
{
    if (!p->err) {
        p->err = err;
        p->errpos = pos;
    }
    return -1;
}

static void skip(struct parser *p)
{
    while (isspace((unsigned char)p->s[p->i]))
        p->i++;
}

static int add(struct parser *p, struct node n)
{
    if (p->f->count >= (int)(sizeof p->f->n / sizeof *p->f->n))
        return fail(p, E_TOO_MANY_PREDS, p->i);
    p->f->n[p->f->count] = n;
    return p->f->count++;
}

/* trace_find_event_field(): the common fields, then the event's, named
 * by the last word of their declaration ("char prev_comm[16]"). */
static bool find_field(const struct event_format *e, const char *name, size_t n, struct field *f)
{
    static const struct {
        const char *name;
        unsigned off, size;
        bool is_signed;
    } common[] = {{"common_type", 0, 2, false},
                  {"common_flags", 2, 1, false},
                  {"common_preempt_count", 3, 1, false},
                  {"common_pid", 4, 4, true}};
    for (size_t i = 0; i < sizeof common / sizeof *common; i++) {
        if (strlen(common[i].name) == n && strncmp(common[i].name, name, n) == 0) {
            *f = (struct field){T_NUM, common[i].off, common[i].size, common[i].is_signed};
            return true;
        }
    }
    for (unsigned k = 0; k < e->nr_fields; k++) {
        const struct event_field *ef = &e->fields[k];
        const char *word = strrchr(ef->decl, ' ');
        word = word ? word + 1 : ef->decl;
        size_t len = strcspn(word, "[");
        if (len != n || strncmp(word, name, n) != 0)
            continue;
        bool dloc = strncmp(ef->decl, "__data_loc ", 11) == 0;
        bool str = !dloc && strncmp(ef->decl, "char ", 5) == 0 && word[len] == '[';
        *f = (struct field){dloc  ? T_DLOC
                            : str ? T_STR
                                  : T_NUM,
                            ef->offset, ef->size, ef->is_signed};
        return true;
    }
    return false;
}

/* parse_pred(): FIELD OP VALUE, its errors where 5.15 reports them. */
static int parse_pred(struct parser *p)
{
    const char *s = p->s;
    skip(p);
    size_t start = p->i;
    while (isalnum((unsigned char)s[p->i]) || s[p->i] == '_')
        p->i++;
    if (p->i == start)
        return fail(p, E_INVALID_FILTER, p->i);
    if (++p->preds > PREDS_MAX)
        return fail(p, E_TOO_MANY_PREDS, start);
    struct node n = {.kind = N_PRED, .l = -1, .r = -1};
    if (!find_field(p->e, s + start, p->i - start, &n.f))
        return fail(p, E_FIELD_NOT_FOUND, p->i);
    skip(p);
    int op = 0;
    while (op < OP_COUNT && strncmp(s + p->i, ops[op], strlen(ops[op])) != 0)
        op++;
    if (op == OP_COUNT)
        return fail(p, E_INVALID_OP, p->i);
    n.op = (enum op)op;
    p->i += strlen(ops[op]);
    skip(p);
    size_t vs = p->i;
    if (s[p->i] == '"' || s[p->i] == '\'') {
        char q = s[p->i];
        if (n.op != OP_EQ && n.op != OP_NE && n.op != OP_GLOB)
            return fail(p, E_ILLEGAL_FIELD_OP, p->i);
        if (n.f.type == T_NUM)
            return fail(p, E_EXPECT_DIGIT, p->i);
        for (p->i++; s[p->i] && s[p->i] != q; p->i++)
            ;
        if (!s[p->i])
            return fail(p, E_MISSING_QUOTE, p->i);
        size_t len = p->i - vs - 1;
        if (len >= STR_MAX)
            return fail(p, E_OPERAND_TOO_LONG, p->i);
        n.str = strndup(s + vs + 1, len);
        if (!n.str)
            return fail(p, E_INVALID_FILTER, vs);
        p->i++;
    } else if (isdigit((unsigned char)s[p->i]) || s[p->i] == '-') {
        if (n.f.type != T_NUM)
            return fail(p, E_EXPECT_STRING, p->i);
        if (n.op == OP_GLOB)
            return fail(p, E_ILLEGAL_FIELD_OP, p->i);
        if (s[p->i] == '-')
            p->i++;
        while (isalnum((unsigned char)s[p->i]))
            p->i++;
        char num[24];
        size_t len = p->i - vs;
        if (len >= sizeof num)
            return fail(p, E_OPERAND_TOO_LONG, p->i);
        memcpy(num, s + vs, len);
        num[len] = '\0';
        /* kstrtoll()/kstrtoull() with base 0: the whole token, no sign
         * for an unsigned field */
        char *end;
        errno = 0;
        if (n.f.is_signed)
            n.val = (uint64_t)strtoll(num, &end, 0);
        else
            n.val = num[0] == '-' ? (end = num, 0) : strtoull(num, &end, 0);
        if (end == num || *end || errno)
            return fail(p, E_ILLEGAL_INTVAL, vs);
    } else {
        return fail(p, E_INVALID_VALUE, p->i);
    }
    int at = add(p, n);
    if (at < 0)
        free(n.str);
    return at;
}

static int parse_or(struct parser *p, int depth);

static int parse_unary(struct parser *p, int depth)
{
    skip(p);
    if (p->s[p->i] == '!' && p->s[p->i + 1] != '=') {
        p->i++;
        int x = parse_unary(p, depth);
        return x < 0 ? -1 : add(p, (struct node){.kind = N_NOT, .l = x, .r = -1});
    }
    if (p->s[p->i] == '(') {
        size_t open = p->i++;
        if (depth >= PREDS_MAX)
            return fail(p, E_TOO_MANY_PREDS, open);
        int x = parse_or(p, depth + 1);
        if (x < 0)
            return -1;
        skip(p);
        if (p->s[p->i] != ')')
            return fail(p, E_TOO_MANY_OPEN, open);
        p->i++;
        return x;
    }
    return parse_pred(p);
}

static int parse_binary(struct parser *p, int depth, bool or)
{
    int l = or ? parse_binary(p, depth, false) : parse_unary(p, depth);
    for (;;) {
        if (l < 0)
            return -1;
        skip(p);
        if (strncmp(p->s + p->i, or ? "||" : "&&", 2) != 0)
            return l;
        p->i += 2;
        int r = or ? parse_binary(p, depth, false) : parse_unary(p, depth);
        if (r < 0)
            return -1;
        l = add(p, (struct node){.kind = or ? N_OR : N_AND, .l = l, .r = r});
    }
}

static int parse_or(struct parser *p, int depth)
{
    return parse_binary(p, depth, true);
}

void trace_filter_free(struct trace_filter *f)
{
    for (int i = 0; f && i < f->count; i++)
        free(f->n[i].str);
    free(f);
}

int trace_filter_parse(const struct event_format *e, const char *text, struct trace_filter **out,
                       char **errtext)
{
    *out = NULL;
    *errtext = NULL;
    struct parser p = {.e = e, .s = text};
    if (!(p.f = calloc(1, sizeof *p.f)))
        return -ENOMEM;
    p.f->root = parse_or(&p, 0);
    skip(&p);
    if (p.f->root >= 0 && p.s[p.i])
        fail(&p, p.s[p.i] == ')' ? E_TOO_MANY_CLOSE : E_INVALID_FILTER, p.i);
    if (!p.err) {
        *out = p.f;
        return 0;
    }
    trace_filter_free(p.f);
    /* append_filter_err(): the caret under lasterr_pos */
    size_t len = strlen(text), pos = p.errpos > len ? len : p.errpos;
    size_t size = len + pos + 64 + strlen(err_text[p.err]);
    if (!(*errtext = malloc(size)))
        return -ENOMEM;
    snprintf(*errtext, size, "%s\n%*s\nparse_error: %s\n", text, (int)pos + 1, "^",
             err_text[p.err]);
    return -EINVAL;
}

static uint64_t load(const unsigned char *rec, const struct field *f)
{
    uint64_t v = 0;
    for (unsigned b = 0; b < f->size && b < 8; b++)
        v |= (uint64_t)rec[f->off + b] << (8 * b);
    if (f->is_signed && f->size < 8 && (v >> (8 * f->size - 1)) & 1)
        v |= ~UINT64_C(0) << (8 * f->size);
    return v;
}

static bool pred_match(const struct node *n, const unsigned char *rec, size_t len)
{
    const struct field *f = &n->f;
    if (f->off + f->size > len)
        return false;
    if (f->type == T_NUM) {
        uint64_t v = load(rec, f);
        int64_t sv = (int64_t)v, sval = (int64_t)n->val;
        bool s = f->is_signed;
        switch (n->op) {
        case OP_EQ:
            return v == n->val;
        case OP_NE:
            return v != n->val;
        case OP_LT:
            return s ? sv < sval : v < n->val;
        case OP_LE:
            return s ? sv <= sval : v <= n->val;
        case OP_GT:
            return s ? sv > sval : v > n->val;
        case OP_GE:
            return s ? sv >= sval : v >= n->val;
        case OP_BAND:
            return (v & n->val) != 0;
        default:
            return false;
        }
    }
    char str[STR_MAX + 1];
    size_t at = f->off, max = f->size;
    if (f->type == T_DLOC) { /* u32: offset in the low half, length in the high */
        uint32_t loc = (uint32_t)load(rec, &(struct field){T_NUM, f->off, 4, false});
        at = loc & 0xffff;
        max = loc >> 16;
        if (at + max > len)
            return false;
    }
    size_t k = 0;
    while (k < max && k < STR_MAX && rec[at + k])
        k++;
    memcpy(str, rec + at, k);
    str[k] = '\0';
    bool eq = n->op == OP_GLOB ? fnmatch(n->str, str, 0) == 0 : strcmp(str, n->str) == 0;
    return n->op == OP_NE ? !eq : eq;
}

static bool eval(const struct trace_filter *f, int i, const unsigned char *rec, size_t len)
{
    const struct node *n = &f->n[i];
    switch (n->kind) {
    case N_AND:
        return eval(f, n->l, rec, len) && eval(f, n->r, rec, len);
    case N_OR:
        return eval(f, n->l, rec, len) || eval(f, n->r, rec, len);
    case N_NOT:
        return !eval(f, n->l, rec, len);
    default:
        return pred_match(n, rec, len);
    }
}

bool trace_filter_match(const struct trace_filter *f, const unsigned char *rec, size_t len)
{
    return !f || f->root < 0 || eval(f, f->root, rec, len);
}
