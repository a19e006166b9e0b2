package dev.gpugen.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * picocli's command model built with its programmatic API, for the commands pre-commit runs on
 * every commit (the root, {@code validate}, {@code render}) and the options every command shares.
 * Reading picocli's annotations costs a short run about 35 ms the first time: the JDK turns each
 * annotation type into a dynamic proxy class, which JDK 17's class-data-sharing archive cannot hold
 * (docs/speed.md). The other commands keep their annotations; they are not on that path.
 */
final class CliModel {
  private CliModel() {}

  /**
   * A command named {@code name} that runs {@code command} (a {@link Runnable} or {@link
   * java.util.concurrent.Callable}), with the help and version options every gpugen command has.
   */
  static CommandSpec command(Object command, String name, String... description) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(command);
    spec.name(name);
    spec.usageMessage().description(description);
    spec.versionProvider(new GpugenCommand.Version());
    // What picocli's mixinStandardHelpOptions adds, which it builds from annotations.
    spec.addOption(
        OptionSpec.builder("-h", "--help")
            .usageHelp(true)
            .description("Show this help message and exit.")
            .build());
    spec.addOption(
        OptionSpec.builder("-V", "--version")
            .versionHelp(true)
            .description("Print version information and exit.")
            .build());
    return spec;
  }

  /**
   * Adds {@code options} to an annotated command's model before its -h and -V, which
   * mixinStandardHelpOptions adds last: where the options of a {@code @Mixin} stood, so that a
   * command with {@code sortOptions = false} lists them in --help and completion as before.
   */
  static CommandSpec addBeforeHelp(CommandSpec spec, List<OptionSpec> options) {
    List<OptionSpec> help =
        spec.options().stream().filter(o -> o.usageHelp() || o.versionHelp()).toList();
    help.forEach(spec::remove);
    options.forEach(spec::addOption);
    help.forEach(spec::addOption);
    return spec;
  }

  /**
   * An option without a value: {@code to} gets false before parsing, true if it is given. Its arity
   * is left unspecified, as on an annotated boolean field: picocli then derives 0 and still accepts
   * an attached {@code --flag=true} or {@code --flag=false}, which an explicit {@code arity("0")}
   * refuses (CommandLine.java, "should be specified without").
   */
  static OptionSpec flag(Consumer<Boolean> to, String description, String... names) {
    Binding<Boolean> binding = new Binding<>(to);
    return OptionSpec.builder(names)
        .type(boolean.class)
        .initialValue(false)
        .getter(binding)
        .setter(binding)
        .description(description)
        .build();
  }

  /** An option with one value of {@code type}, {@code initial} when it is not given. */
  static <T> OptionSpec option(
      Class<T> type, T initial, Consumer<T> to, String label, String description, String... names) {
    Binding<T> binding = new Binding<>(to);
    return OptionSpec.builder(names)
        .type(type)
        .initialValue(initial)
        .getter(binding)
        .setter(binding)
        .paramLabel(label)
        .description(description)
        .build();
  }

  /** A repeatable option: {@code to} gets every value given, in order (none: an empty list). */
  static OptionSpec repeated(
      Consumer<List<String>> to, String label, String description, String... names) {
    Binding<List<String>> binding = new Binding<>(to);
    return OptionSpec.builder(names)
        .type(List.class)
        .auxiliaryTypes(String.class)
        .initialValue(List.of())
        .getter(binding)
        .setter(binding)
        .paramLabel(label)
        .description(description)
        .build();
  }

  /** One or more paths after the options. */
  static PositionalParamSpec paths(Consumer<List<Path>> to, String label, String description) {
    Binding<List<Path>> binding = new Binding<>(to);
    return PositionalParamSpec.builder()
        .arity("1..*")
        .required(true)
        .type(List.class)
        .auxiliaryTypes(Path.class)
        .getter(binding)
        .setter(binding)
        .paramLabel(label)
        .description(description)
        .build();
  }

  /**
   * picocli's getter and setter of one option, handing each value it sets on to the command's
   * field. It keeps the value too: picocli adds a repeated option's values to the list it reads
   * back.
   */
  private static final class Binding<T>
      implements CommandLine.Model.IGetter, CommandLine.Model.ISetter {
    private final Consumer<T> to;
    private Object value;

    Binding(Consumer<T> to) {
      this.to = to;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> V get() {
      return (V) value;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> V set(V value) {
      V previous = (V) this.value;
      this.value = value;
      to.accept((T) value);
      return previous;
    }
  }
}
