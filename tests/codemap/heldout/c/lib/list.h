#ifndef LIST_H // @ref LIST_H>LIST_H
#define LIST_H // @def macro LIST_H

#define LIST_MAX 16 // @def macro LIST_MAX
#define LIST_LEN(l) ((l)->len) // @def macro LIST_LEN

typedef struct node { // @def class node
    int value;
    struct node *next; // @ref node>node
} node_t; // @def type node_t

typedef int (*visit_fn)(int); // @def type visit_fn

enum color { RED, GREEN }; // @def enum color @def constant color.RED @def constant color.GREEN

typedef struct { // anonymous struct behind a typedef
    node_t *head; // @ref node_t>node_t
    int len;
} list_t; // @def type list_t

list_t *list_new(void); // @def prototype list_new @ref list_t>list_t
void list_push(list_t *l, int v); // @def prototype list_push @ref list_t>list_t
int list_each(list_t *l, visit_fn f); // @def prototype list_each @ref list_t>list_t @ref visit_fn>visit_fn

#endif
