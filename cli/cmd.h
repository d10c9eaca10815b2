/*
 * cmd.h — the subcommands of srt-tui.  Each takes the arguments after its
 * name (argv[0] is the subcommand) and returns the process exit status.
 */
#ifndef SRT_CMD_H
#define SRT_CMD_H

int cmd_get(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_unset(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_expand(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_edit(int argc, char **argv);

#endif
