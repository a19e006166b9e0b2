package dev.gpugen.cli;

import dev.gpugen.spec.Printable;
import dev.gpugen.spec.ShellCommand;
import dev.gpugen.spec.yaml.Suggest;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * A usage error prints what is wrong, the command's usage on one line and where the rest is: the
 * full help would push the error off the screen. A misspelt command gets the one command it
 * probably meant.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {
  /**
   * Refuses a path that no command gpugen prints for pasting could name (one ending in a line
   * feed), before anything is done with it.
   */
  static void requirePasteable(CommandLine cl, String what, Object path) {
    if (path != null) {
      ShellCommand.problem(path.toString())
          .ifPresent(
              p -> {
                throw new CommandLine.ParameterException(
                    cl, what + " " + Printable.text(path.toString()) + " " + p);
              });
    }
  }

  @Override
  public int handleParseException(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    PrintWriter err = cl.getErr();
    // Picocli's messages quote the arguments as typed: outside text for the terminal.
    err.println("gpugen: " + Printable.text(message(e, cl)));
    String synopsis = cl.getHelp().synopsis(0).strip().replaceAll("\\s+", " ");
    err.println("usage: " + synopsis);
    err.println("Run '" + cl.getCommandSpec().qualifiedName() + " --help' for more.");
    err.flush();
    return ExitCodes.USAGE;
  }

  private static String message(CommandLine.ParameterException e, CommandLine cl) {
    if (e instanceof CommandLine.UnmatchedArgumentException u
        && !u.getUnmatched().isEmpty()
        && !cl.getSubcommands().isEmpty()
        && !u.getUnmatched().get(0).startsWith("-")) {
      // The root command: the first word is an unknown command.
      String word = u.getUnmatched().get(0);
      List<String> commands =
          cl.getSubcommands().keySet().stream().filter(c -> !c.equals("help")).toList();
      String suggestion = Suggest.closest(word, commands);
      return "unknown command '"
          + word
          + "'"
          + (suggestion == null ? "" : "; did you mean " + suggestion + "?");
    }
    return e.getMessage();
  }
}
