// Cheating vadd: the whole submission includes the assignment's reference solution from the
// grading machine. A submission is built from its own text only: it is refused before any device
// builds it, and loses every item.
// expect: builds=build_error
#include "../../../../kernels/assignments/vadd.cl"
