package dev.gpugen.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code -v}/{@code --verbose}, the same on every command. {@link Failures} reads it from the parse
 * result, so it binds to nothing. Annotated commands add it with {@code @Command(modelTransformer =
 * VerboseOption.Added.class)}.
 */
final class VerboseOption {
  private VerboseOption() {}

  static OptionSpec spec() {
    return CliModel.flag(v -> {}, "Print stack traces of internal errors.", "-v", "--verbose");
  }

  /** Adds the option to an annotated command's model. */
  static final class Added implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      return CliModel.addBeforeHelp(spec, java.util.List.of(spec()));
    }
  }
}
