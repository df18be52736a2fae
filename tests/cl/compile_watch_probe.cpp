// A module the compile-watch test loads after the process's first launch, standing for a kernel's
// compiled code: a call through it puts a frame of code loaded since then on the stack.
extern "C" int clh_call_through(int (*f)()) {
  volatile int got = f();  // not a tail call: this frame stays on the stack during f
  return got;
}
