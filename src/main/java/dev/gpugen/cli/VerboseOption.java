package dev.gpugen.cli;

import picocli.CommandLine.Option;

/** {@code -v}/{@code --verbose}, the same on every command; {@link Failures} reads it. */
final class VerboseOption {
  @Option(
      names = {"-v", "--verbose"},
      description = "Print stack traces of internal errors.")
  boolean verbose;
}
