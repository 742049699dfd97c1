/*
 * Private: forwarding a libomp microtask's arguments (kmpc.c's
 * __kmpc_fork_call wrapper).  The compiler passes a region's shared
 * variables as ARGC pointer-sized arguments after the microtask
 * (clang: void * each); the runtime's own invoker does the same switch
 * (libomp's kmp_runtime.cpp __kmp_invoke_microtask, non-assembly version).
 * Generated once by a short loop (one line per count); up to
 * OMP_EXT_KMPC_MAXARGS arguments.
 */
#ifndef OMP_EXT_KMPC_ARGS_H
#define OMP_EXT_KMPC_ARGS_H

#define OMP_EXT_KMPC_MAXARGS 64

#define OMP_EXT_KMPC_A0
#define OMP_EXT_KMPC_A1 OMP_EXT_KMPC_A0, a[0]
#define OMP_EXT_KMPC_A2 OMP_EXT_KMPC_A1, a[1]
#define OMP_EXT_KMPC_A3 OMP_EXT_KMPC_A2, a[2]
#define OMP_EXT_KMPC_A4 OMP_EXT_KMPC_A3, a[3]
#define OMP_EXT_KMPC_A5 OMP_EXT_KMPC_A4, a[4]
#define OMP_EXT_KMPC_A6 OMP_EXT_KMPC_A5, a[5]
#define OMP_EXT_KMPC_A7 OMP_EXT_KMPC_A6, a[6]
#define OMP_EXT_KMPC_A8 OMP_EXT_KMPC_A7, a[7]
#define OMP_EXT_KMPC_A9 OMP_EXT_KMPC_A8, a[8]
#define OMP_EXT_KMPC_A10 OMP_EXT_KMPC_A9, a[9]
#define OMP_EXT_KMPC_A11 OMP_EXT_KMPC_A10, a[10]
#define OMP_EXT_KMPC_A12 OMP_EXT_KMPC_A11, a[11]
#define OMP_EXT_KMPC_A13 OMP_EXT_KMPC_A12, a[12]
#define OMP_EXT_KMPC_A14 OMP_EXT_KMPC_A13, a[13]
#define OMP_EXT_KMPC_A15 OMP_EXT_KMPC_A14, a[14]
#define OMP_EXT_KMPC_A16 OMP_EXT_KMPC_A15, a[15]
#define OMP_EXT_KMPC_A17 OMP_EXT_KMPC_A16, a[16]
#define OMP_EXT_KMPC_A18 OMP_EXT_KMPC_A17, a[17]
#define OMP_EXT_KMPC_A19 OMP_EXT_KMPC_A18, a[18]
#define OMP_EXT_KMPC_A20 OMP_EXT_KMPC_A19, a[19]
#define OMP_EXT_KMPC_A21 OMP_EXT_KMPC_A20, a[20]
#define OMP_EXT_KMPC_A22 OMP_EXT_KMPC_A21, a[21]
#define OMP_EXT_KMPC_A23 OMP_EXT_KMPC_A22, a[22]
#define OMP_EXT_KMPC_A24 OMP_EXT_KMPC_A23, a[23]
#define OMP_EXT_KMPC_A25 OMP_EXT_KMPC_A24, a[24]
#define OMP_EXT_KMPC_A26 OMP_EXT_KMPC_A25, a[25]
#define OMP_EXT_KMPC_A27 OMP_EXT_KMPC_A26, a[26]
#define OMP_EXT_KMPC_A28 OMP_EXT_KMPC_A27, a[27]
#define OMP_EXT_KMPC_A29 OMP_EXT_KMPC_A28, a[28]
#define OMP_EXT_KMPC_A30 OMP_EXT_KMPC_A29, a[29]
#define OMP_EXT_KMPC_A31 OMP_EXT_KMPC_A30, a[30]
#define OMP_EXT_KMPC_A32 OMP_EXT_KMPC_A31, a[31]
#define OMP_EXT_KMPC_A33 OMP_EXT_KMPC_A32, a[32]
#define OMP_EXT_KMPC_A34 OMP_EXT_KMPC_A33, a[33]
#define OMP_EXT_KMPC_A35 OMP_EXT_KMPC_A34, a[34]
#define OMP_EXT_KMPC_A36 OMP_EXT_KMPC_A35, a[35]
#define OMP_EXT_KMPC_A37 OMP_EXT_KMPC_A36, a[36]
#define OMP_EXT_KMPC_A38 OMP_EXT_KMPC_A37, a[37]
#define OMP_EXT_KMPC_A39 OMP_EXT_KMPC_A38, a[38]
#define OMP_EXT_KMPC_A40 OMP_EXT_KMPC_A39, a[39]
#define OMP_EXT_KMPC_A41 OMP_EXT_KMPC_A40, a[40]
#define OMP_EXT_KMPC_A42 OMP_EXT_KMPC_A41, a[41]
#define OMP_EXT_KMPC_A43 OMP_EXT_KMPC_A42, a[42]
#define OMP_EXT_KMPC_A44 OMP_EXT_KMPC_A43, a[43]
#define OMP_EXT_KMPC_A45 OMP_EXT_KMPC_A44, a[44]
#define OMP_EXT_KMPC_A46 OMP_EXT_KMPC_A45, a[45]
#define OMP_EXT_KMPC_A47 OMP_EXT_KMPC_A46, a[46]
#define OMP_EXT_KMPC_A48 OMP_EXT_KMPC_A47, a[47]
#define OMP_EXT_KMPC_A49 OMP_EXT_KMPC_A48, a[48]
#define OMP_EXT_KMPC_A50 OMP_EXT_KMPC_A49, a[49]
#define OMP_EXT_KMPC_A51 OMP_EXT_KMPC_A50, a[50]
#define OMP_EXT_KMPC_A52 OMP_EXT_KMPC_A51, a[51]
#define OMP_EXT_KMPC_A53 OMP_EXT_KMPC_A52, a[52]
#define OMP_EXT_KMPC_A54 OMP_EXT_KMPC_A53, a[53]
#define OMP_EXT_KMPC_A55 OMP_EXT_KMPC_A54, a[54]
#define OMP_EXT_KMPC_A56 OMP_EXT_KMPC_A55, a[55]
#define OMP_EXT_KMPC_A57 OMP_EXT_KMPC_A56, a[56]
#define OMP_EXT_KMPC_A58 OMP_EXT_KMPC_A57, a[57]
#define OMP_EXT_KMPC_A59 OMP_EXT_KMPC_A58, a[58]
#define OMP_EXT_KMPC_A60 OMP_EXT_KMPC_A59, a[59]
#define OMP_EXT_KMPC_A61 OMP_EXT_KMPC_A60, a[60]
#define OMP_EXT_KMPC_A62 OMP_EXT_KMPC_A61, a[61]
#define OMP_EXT_KMPC_A63 OMP_EXT_KMPC_A62, a[62]
#define OMP_EXT_KMPC_A64 OMP_EXT_KMPC_A63, a[63]

/* CALL(n, ARGS) for every count 0..OMP_EXT_KMPC_MAXARGS: a switch's cases. */
#define OMP_EXT_KMPC_CASES(CALL) \
  case 0: CALL(OMP_EXT_KMPC_A0); break; \
  case 1: CALL(OMP_EXT_KMPC_A1); break; \
  case 2: CALL(OMP_EXT_KMPC_A2); break; \
  case 3: CALL(OMP_EXT_KMPC_A3); break; \
  case 4: CALL(OMP_EXT_KMPC_A4); break; \
  case 5: CALL(OMP_EXT_KMPC_A5); break; \
  case 6: CALL(OMP_EXT_KMPC_A6); break; \
  case 7: CALL(OMP_EXT_KMPC_A7); break; \
  case 8: CALL(OMP_EXT_KMPC_A8); break; \
  case 9: CALL(OMP_EXT_KMPC_A9); break; \
  case 10: CALL(OMP_EXT_KMPC_A10); break; \
  case 11: CALL(OMP_EXT_KMPC_A11); break; \
  case 12: CALL(OMP_EXT_KMPC_A12); break; \
  case 13: CALL(OMP_EXT_KMPC_A13); break; \
  case 14: CALL(OMP_EXT_KMPC_A14); break; \
  case 15: CALL(OMP_EXT_KMPC_A15); break; \
  case 16: CALL(OMP_EXT_KMPC_A16); break; \
  case 17: CALL(OMP_EXT_KMPC_A17); break; \
  case 18: CALL(OMP_EXT_KMPC_A18); break; \
  case 19: CALL(OMP_EXT_KMPC_A19); break; \
  case 20: CALL(OMP_EXT_KMPC_A20); break; \
  case 21: CALL(OMP_EXT_KMPC_A21); break; \
  case 22: CALL(OMP_EXT_KMPC_A22); break; \
  case 23: CALL(OMP_EXT_KMPC_A23); break; \
  case 24: CALL(OMP_EXT_KMPC_A24); break; \
  case 25: CALL(OMP_EXT_KMPC_A25); break; \
  case 26: CALL(OMP_EXT_KMPC_A26); break; \
  case 27: CALL(OMP_EXT_KMPC_A27); break; \
  case 28: CALL(OMP_EXT_KMPC_A28); break; \
  case 29: CALL(OMP_EXT_KMPC_A29); break; \
  case 30: CALL(OMP_EXT_KMPC_A30); break; \
  case 31: CALL(OMP_EXT_KMPC_A31); break; \
  case 32: CALL(OMP_EXT_KMPC_A32); break; \
  case 33: CALL(OMP_EXT_KMPC_A33); break; \
  case 34: CALL(OMP_EXT_KMPC_A34); break; \
  case 35: CALL(OMP_EXT_KMPC_A35); break; \
  case 36: CALL(OMP_EXT_KMPC_A36); break; \
  case 37: CALL(OMP_EXT_KMPC_A37); break; \
  case 38: CALL(OMP_EXT_KMPC_A38); break; \
  case 39: CALL(OMP_EXT_KMPC_A39); break; \
  case 40: CALL(OMP_EXT_KMPC_A40); break; \
  case 41: CALL(OMP_EXT_KMPC_A41); break; \
  case 42: CALL(OMP_EXT_KMPC_A42); break; \
  case 43: CALL(OMP_EXT_KMPC_A43); break; \
  case 44: CALL(OMP_EXT_KMPC_A44); break; \
  case 45: CALL(OMP_EXT_KMPC_A45); break; \
  case 46: CALL(OMP_EXT_KMPC_A46); break; \
  case 47: CALL(OMP_EXT_KMPC_A47); break; \
  case 48: CALL(OMP_EXT_KMPC_A48); break; \
  case 49: CALL(OMP_EXT_KMPC_A49); break; \
  case 50: CALL(OMP_EXT_KMPC_A50); break; \
  case 51: CALL(OMP_EXT_KMPC_A51); break; \
  case 52: CALL(OMP_EXT_KMPC_A52); break; \
  case 53: CALL(OMP_EXT_KMPC_A53); break; \
  case 54: CALL(OMP_EXT_KMPC_A54); break; \
  case 55: CALL(OMP_EXT_KMPC_A55); break; \
  case 56: CALL(OMP_EXT_KMPC_A56); break; \
  case 57: CALL(OMP_EXT_KMPC_A57); break; \
  case 58: CALL(OMP_EXT_KMPC_A58); break; \
  case 59: CALL(OMP_EXT_KMPC_A59); break; \
  case 60: CALL(OMP_EXT_KMPC_A60); break; \
  case 61: CALL(OMP_EXT_KMPC_A61); break; \
  case 62: CALL(OMP_EXT_KMPC_A62); break; \
  case 63: CALL(OMP_EXT_KMPC_A63); break; \
  case 64: CALL(OMP_EXT_KMPC_A64); break;

#endif /* OMP_EXT_KMPC_ARGS_H */
