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
import picocli.CommandLine.Command;

/** The root {@code gpugen} command: a list of subcommands and the exit-code contract. */
@Command(
    name = "gpugen",
    mixinStandardHelpOptions = true,
    versionProvider = GpugenCommand.Version.class,
    description = "One GPU cluster spec to Terraform, Ansible and a dynamic inventory.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the spec is valid; the render was written or is up to date",
      "1:the spec is invalid, or the render is stale (--check) or refused",
      "2:bad usage",
      "3:I/O or cloud API failure",
      "4:internal error (a bug in gpugen, or a broken --templates override)"
    })
public final class GpugenCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin VerboseOption verbose;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Every subcommand, in the order --help lists them. */
  private static final Map<String, Supplier<Object>> SUBCOMMANDS = new LinkedHashMap<>();

  static {
    SUBCOMMANDS.put("validate", ValidateCommand::new);
    SUBCOMMANDS.put("render", RenderCommand::new);
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
   * subcommand gets only that one; help and completion get them all.
   */
  static CommandLine commandLine(String[] args) {
    CommandLine cl = new CommandLine(new GpugenCommand());
    String first = args.length > 0 ? args[0] : "";
    boolean one =
        SUBCOMMANDS.containsKey(first)
            && !first.equals("help")
            && !first.equals("generate-completion");
    SUBCOMMANDS.forEach(
        (name, factory) -> {
          if (!one || name.equals(first)) {
            cl.addSubcommand(name, factory.get());
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
