#include <stdlib.h>
#include "list.h"

static node_t *node_new(int v) { // @def function node_new @ref node_t>node_t
    node_t *n = malloc(sizeof *n); // @ref node_t>node_t
    n->value = v;
    return n;
}

list_t *list_new(void) { // @def function list_new @ref list_t>list_t
    return calloc(1, sizeof(list_t)); // @ref list_t>list_t
}

void list_push(list_t *l, int v) { // @def function list_push @ref list_t>list_t
    if (LIST_LEN(l) >= LIST_MAX) return; // @ref LIST_LEN>LIST_LEN @ref LIST_MAX>LIST_MAX
    node_t *n = node_new(v); // @ref node_t>node_t @ref node_new>node_new
    n->next = l->head;
    l->head = n;
    l->len++;
}

int list_each(list_t *l, visit_fn f) { // @def function list_each @ref list_t>list_t @ref visit_fn>visit_fn
    int total = 0;
    for (node_t *n = l->head; n; n = n->next) total += f(n->value); // @ref node_t>node_t
    return total;
}
