package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.lint.rules.spec.SpecDocumentationAddress;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Keyword;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.ShellCommand;
import dev.gpugen.spec.yaml.StarterSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gpugen init}: a commented starter spec that validates without errors, for one GPU type.
 */
@Command(
    modelTransformer = VerboseOption.Added.class,
    name = "init",
    mixinStandardHelpOptions = true,
    description = {
      "Write a commented starter spec for one GPU type: one pool of its usual AWS instance type"
          + " (GKE machine type, or bare-metal hosts), current software versions, and comments on"
          + " what to change.",
      "The spec validates with no errors; validate warns at each placeholder address (a"
          + " documentation range, RFC 5737) to replace with your own; an existing file is kept"
          + " unless --force."
    })
final class InitCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--gpu",
      paramLabel = "GPU",
      description = "h100 (default), h200, b200, a100 or l4.")
  StarterSpec.Gpu gpu = StarterSpec.Gpu.h100;

  @Option(
      names = "--provider",
      paramLabel = "PROVIDER",
      converter = ProviderConverter.class,
      description = "aws (default), gcp (a GKE node pool) or static (bare-metal hosts you list).")
  Provider provider = Provider.AWS;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "metadata.name (default: <gpu>-cluster).")
  String name;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Where to write the spec (default: cluster.yaml; - for standard output).")
  String output = "cluster.yaml";

  @Option(names = "--force", description = "Overwrite FILE if it exists.")
  boolean force;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (!output.equals("-")) {
      UsageErrors.requirePasteable(spec.commandLine(), "-o", output);
    }
    String clusterName = name != null ? name : StarterSpec.defaultName(gpu);
    StarterSpec.nameProblem(clusterName)
        .ifPresent(
            problem -> {
              throw new CommandLine.ParameterException(spec.commandLine(), "--name: " + problem);
            });
    String text = StarterSpec.text(gpu, clusterName, provider);
    check(text, clusterName);
    if (output.equals("-")) {
      out.print(text);
      out.flush();
      return ExitCodes.OK;
    }
    Path file = Path.of(output);
    write(file, text);
    out.println(
        "wrote "
            + Printable.text(file.toString())
            + " ("
            + gpu
            + " on "
            + provider
            + "); next: "
            + ShellCommand.of("gpugen", "validate", ShellCommand.path(file.toString()))
            + " && "
            + ShellCommand.of("gpugen", "render", ShellCommand.path(file.toString())));
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * What init writes must validate without an error or a warning; only --name can make it fail.
   * Info findings stay: they tell the user what the spec leaves to them (validate prints them), and
   * so do the spec-documentation-address warnings at the placeholder addresses (RFC 5737) the user
   * must replace.
   */
  private void check(String text, String clusterName) {
    Gpugen.Checked c =
        Knowledge.gpugen()
            .check(
                "starter spec", text.getBytes(StandardCharsets.UTF_8), Optional.empty(), Set.of());
    List<Diagnostic> ds =
        c.diagnostics().stream()
            .filter(d -> d.severity().atLeast(Severity.WARNING))
            .filter(
                d ->
                    !(d.ruleId().equals(SpecDocumentationAddress.ID)
                        && d.severity() == Severity.WARNING))
            .toList();
    if (ds.isEmpty() && c.spec().isPresent()) {
      return;
    }
    Optional<Diagnostic> aboutName =
        ds.stream().filter(d -> d.path().toString().equals("metadata.name")).findFirst();
    if (aboutName.isPresent()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--name: " + aboutName.get().message());
    }
    throw new InternalFailure("the starter spec for " + gpu + " does not validate: " + ds);
  }

  private void write(Path file, String text) {
    String exists = file + " exists; not overwritten (use --force, or -o another file)";
    if (!force && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new InvalidInput(exists);
    }
    boolean reserved = false;
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      // Staged beside the target and renamed into place: never a half-written spec.
      // Not createTempFile: its 0600 would stay on the spec. createFile honours the umask, as
      // an editor saving a new file does (0644 under umask 022).
      Path staged =
          Files.createFile(
              dir.resolve(".gpugen-init-" + Long.toHexString(System.nanoTime()) + ".yaml"));
      try {
        Files.writeString(staged, text, StandardCharsets.UTF_8);
        if (!force) {
          // Claims the name, failing if someone created it since the check above.
          Files.createFile(file);
          reserved = true;
        }
        Files.move(
            staged, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        reserved = false;
      } finally {
        Files.deleteIfExists(staged);
        if (reserved) {
          Files.deleteIfExists(file);
        }
      }
    } catch (FileAlreadyExistsException e) {
      throw new InvalidInput(exists, e);
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot write " + file + ": " + e, e);
    }
  }

  /** Accepts the spec's words for cloud.provider: aws, gcp and static. */
  static final class ProviderConverter implements CommandLine.ITypeConverter<Provider> {
    @Override
    public Provider convert(String value) {
      List<String> words = Keyword.spellings(Provider.class);
      if (!words.contains(value)) {
        throw new CommandLine.TypeConversionException(
            "expected one of " + String.join(", ", words) + " but was '" + value + "'");
      }
      return Keyword.of(Provider.class, value);
    }
  }
}
