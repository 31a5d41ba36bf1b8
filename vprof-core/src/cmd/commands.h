/*
 * commands.h - the subcommands `vprof` runs itself.  Each takes the argv
 * after the subcommand name (argv[0] is the subcommand) and returns the
 * process exit status: 0 success, 1 failed / found nothing, 2 usage or input
 * error.  Any other subcommand NAME is handed to a `vprof-NAME` executable
 * next to `vprof` (git-style), e.g. `vprof loop` -> `vprof-loop`.
 */
#ifndef VPROF_CMD_COMMANDS_H
#define VPROF_CMD_COMMANDS_H

int vp_cmd_record(int argc, char **argv);
int vp_cmd_report(int argc, char **argv);
int vp_cmd_dump(int argc, char **argv);
int vp_cmd_rank(int argc, char **argv);

#endif
