/* SPDX-License-Identifier: GPL-2.0-or-later */
/* energy.h - the performance domains and energy model of --energy-model
 * (cli/energy.c). */
#ifndef ASYMU_CLI_ENERGY_H
#define ASYMU_CLI_ENERGY_H

#include "emu.h"
#include "sched_energy.h"

/* em for the machine cfg describes (its CPUs, capacities and layout are
 * final): arg a file, "none", or NULL (a --soc preset's own). 0, or -1
 * with why ("FILE:LINE: reason"). */
int energy_model_build(const char *arg, const struct emu_config *cfg, struct sched_em *em,
                       char *why, size_t whylen);

#endif
