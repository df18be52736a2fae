// Every work-item writes the word of its local id: work-groups race on every word, at one line,
// each race between another pair of work-items (Oclgrind reports them when the kernel ends).
__kernel void same_words(__global int* out) {
  out[get_local_id(0)] = (int)get_group_id(0);
}
