package dev.gpugen.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The root {@code gpugen} command: a list of subcommands and the exit-code contract. */
@Command(
    name = "gpugen",
    mixinStandardHelpOptions = true,
    versionProvider = GpugenCommand.Version.class,
    description = "One GPU cluster spec to Terraform, Ansible and a dynamic inventory.",
    subcommands = {
      ValidateCommand.class,
      RenderCommand.class,
      SchemaCommand.class,
      ExplainCommand.class,
      InitCommand.class,
      AutoComplete.GenerateCompletion.class,
      CommandLine.HelpCommand.class
    },
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

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The command line with gpugen's error handling installed. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new GpugenCommand());
    cl.setExecutionExceptionHandler(new Failures());
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
