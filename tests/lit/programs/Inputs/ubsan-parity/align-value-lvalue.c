// From compiler-rt's ubsan align-assume-attribute-align_value-on-lvalue: a
// typedef with `align_value` makes every load of a field of that type a
// promise (the store into the field is not one).
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

typedef char *__attribute__((align_value(0x8000))) page_ptr;

struct holder {
  page_ptr page;
};

char *read_holder(struct holder *h) { return h->page; }

int main(void) {
  struct holder h;
  h.page = parity_base() + 1;
  for (int round = 0; round < 2; ++round)
    read_holder(&h);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
