/*
 * pyfloat.h — a double printed as Python's repr() prints it: the shortest
 * digits that read back as the same double, fixed notation for
 * 1e-4 <= |x| < 1e16 (with ".0" when integral), else d.ddde±XX.  srtctl
 * renders floats this way in flags and JSON, and PyYAML must read back what
 * we write, so model/ and render/ share this one printer.
 */
#ifndef SRT_PYFLOAT_H
#define SRT_PYFLOAT_H

#include "lib/util.h"

void py_float_repr(struct strbuf *out, double d);

#endif
