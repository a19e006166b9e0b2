package dev.gpugen.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The root {@code gpugen} command: a list of subcommands and the exit-code contract. */
public final class GpugenCommand implements Runnable {
  private final CommandSpec spec =
      CliModel.command(
          this, "gpugen", "One GPU cluster spec to Terraform, Ansible and a dynamic inventory.");

  private GpugenCommand() {
    spec.addOption(VerboseOption.spec());
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put("0", "the spec is valid; the render was written or is up to date");
    codes.put("1", "the spec is invalid, the render is stale (--check) or refused, or drift found");
    codes.put("2", "bad usage, or a folder that holds another spec's render");
    codes.put(
        "3", "I/O or cloud API failure, nothing to read, or a check of up before its first step");
    codes.put("4", "internal error (a bug in gpugen, or a broken --templates override)");
    codes.put("5", "a step of up or down failed (Terraform, Ansible, the AWS CLI, gcloud)");
    spec.usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(codes);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * Every subcommand, in the order --help lists them: the model of the ones pre-commit runs is
   * built in code ({@link CliModel}), the others' from their annotations.
   */
  private static final Map<String, Supplier<Object>> SUBCOMMANDS = new LinkedHashMap<>();

  static {
    SUBCOMMANDS.put("validate", () -> new ValidateCommand().spec);
    SUBCOMMANDS.put("render", () -> new RenderCommand().spec);
    SUBCOMMANDS.put("plan", PlanCommand::new);
    SUBCOMMANDS.put("schema", SchemaCommand::new);
    SUBCOMMANDS.put("explain", ExplainCommand::new);
    SUBCOMMANDS.put("init", InitCommand::new);
    SUBCOMMANDS.put("inventory", InventoryCommand::new);
    SUBCOMMANDS.put("drift", DriftCommand::new);
    SUBCOMMANDS.put("report", ReportCommand::new);
    SUBCOMMANDS.put("up", UpCommand::new);
    SUBCOMMANDS.put("down", DownCommand::new);
    SUBCOMMANDS.put("generate-completion", AutoComplete.GenerateCompletion::new);
    SUBCOMMANDS.put("help", CommandLine.HelpCommand::new);
  }

  /**
   * The command line with gpugen's error handling installed. picocli introspects every registered
   * command up front, which is a large part of a short run's start-up, so a run that names its
   * subcommand gets only that one, {@code gpugen --version} none; help and completion get them all.
   */
  static CommandLine commandLine(String[] args) {
    CommandLine cl = new CommandLine(new GpugenCommand().spec);
    String first = args.length > 0 ? args[0] : "";
    boolean one =
        SUBCOMMANDS.containsKey(first)
            && !first.equals("help")
            && !first.equals("generate-completion");
    boolean none = args.length == 1 && (first.equals("--version") || first.equals("-V"));
    SUBCOMMANDS.forEach(
        (name, factory) -> {
          if (!none && (!one || name.equals(first))) {
            // Its own CommandLine, which applies its model transformer (SpecOptions.Added):
            // picocli applies them to the subcommands a CommandLine has when it is made.
            CommandLine sub = new CommandLine(factory.get());
            // -V prints gpugen's version on every subcommand: an annotated one has no provider
            // of its own, and picocli's -V then prints nothing.
            if (sub.getCommandSpec().versionProvider() == null) {
              sub.getCommandSpec().versionProvider(new Version());
            }
            cl.addSubcommand(name, sub);
          }
        });
    cl.setExecutionExceptionHandler(new Failures());
    cl.setParameterExceptionHandler(new UsageErrors());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }

  /** Reads the version from the jar's own resources, not from a build-time timestamp. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      Properties p = new Properties();
      try (InputStream in =
          GpugenCommand.class.getResourceAsStream("/dev/gpugen/version.properties")) {
        if (in != null) {
          p.load(in);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new String[] {"gpugen " + p.getProperty("version", "unknown")};
    }
  }
}
