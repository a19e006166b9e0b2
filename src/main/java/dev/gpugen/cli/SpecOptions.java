package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.spec.Severity;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Option;

/** Options every command that reads a spec shares. */
final class SpecOptions {
  @Option(
      names = "--env",
      paramLabel = "NAME",
      description = "Apply the overlay environments.NAME (and tag the cluster with it).")
  String env;

  @Option(
      names = "--skip-rule",
      paramLabel = "ID",
      description = "Do not run this lint rule (repeatable).")
  List<String> skipRules = List.of();

  @Option(
      names = "--fail-on",
      paramLabel = "SEVERITY",
      description = "Fail on findings of this severity or worse: error (default), warning or info.")
  Severity failOn = Severity.ERROR;

  @Option(
      names = {"-v", "--verbose"},
      description = "Print stack traces of internal errors.")
  boolean verbose;

  Optional<String> env() {
    return Optional.ofNullable(env);
  }

  Set<String> skip() {
    return new LinkedHashSet<>(skipRules);
  }

  Gpugen.Checked check(Gpugen gpugen, Path file) throws GpugenException {
    return check(gpugen, file, env());
  }

  /** Reads and lints {@code file} with the overlay {@code environment} (not --env). */
  Gpugen.Checked check(Gpugen gpugen, Path file, Optional<String> environment)
      throws GpugenException {
    try {
      return gpugen.check(file, file.toString(), environment, skip());
    } catch (NoSuchFileException e) {
      throw new GpugenException(ExitCodes.ENVIRONMENT, file + ": no such file", e);
    } catch (IOException e) {
      throw new GpugenException(
          ExitCodes.ENVIRONMENT, file + ": cannot read: " + e.getMessage(), e);
    }
  }

  boolean fails(Gpugen.Checked c) {
    return c.spec().isEmpty()
        || c.diagnostics().stream().anyMatch(d -> d.severity().atLeast(failOn));
  }
}
