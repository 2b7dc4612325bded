#include "list.h"

static int twice(int v) { return v * 2; } // @def function twice

int main(void) { // @def function main
    enum color c = GREEN; // @ref color>color @ref GREEN>color.GREEN
    list_t *l = list_new(); // @ref list_t>list_t @ref list_new>list_new
    list_push(l, c); // @ref list_push>list_push
    return list_each(l, twice); // @ref list_each>list_each
}
