package dev.gpugen;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.lint.Linter;
import dev.gpugen.lint.Rules;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.render.Renderer;
import dev.gpugen.render.Templates;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.SourceMap;
import dev.gpugen.spec.yaml.SafeYaml;
import dev.gpugen.spec.yaml.SpecReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * gpugen as a library: read → lint → render, each a pure step over the previous one's result. The
 * CLI is a thin adapter over this class; tests call it directly.
 */
public final class Gpugen {
  private final Supplier<CompatTable> compat;

  /** The library over one knowledge base: every fact it derives comes from {@code compat}. */
  public Gpugen(CompatTable compat) {
    this.compat = () -> compat;
  }

  /**
   * The same, with the knowledge base asked for only when a spec needs it: reading a spec's YAML
   * does not, so the CLI loads the table on a second core meanwhile.
   */
  public Gpugen(Supplier<CompatTable> compat) {
    this.compat = compat;
  }

  /** A spec after reading and linting: the plan (when the spec could be read) and all findings. */
  public record Checked(
      String label,
      byte[] source,
      Optional<ClusterPlan> plan,
      SourceMap sources,
      List<Diagnostic> diagnostics,
      List<Linter.Suppressed> suppressed) {
    public Checked {
      source = source.clone();
      diagnostics = List.copyOf(diagnostics);
      suppressed = List.copyOf(suppressed);
    }

    /** The resolved spec, when it could be read. */
    public Optional<ClusterSpec> spec() {
      return plan.map(ClusterPlan::spec);
    }

    @Override
    public byte[] source() {
      return source.clone();
    }
  }

  /**
   * Reads a spec file; I/O problems (missing, unreadable) are exceptions, spec problems are not.
   */
  public Checked check(Path file, String label, Optional<String> env, Set<String> skipRules)
      throws IOException {
    return check(file, label, env, skipRules, true);
  }

  /**
   * @param specSuppressions false ignores the spec's lint.skip and lint.severity
   */
  public Checked check(
      Path file,
      String label,
      Optional<String> env,
      Set<String> skipRules,
      boolean specSuppressions)
      throws IOException {
    // A FIFO or a device would block or never end: only regular files (links to them are fine).
    if (!Files.isRegularFile(file) && Files.exists(file)) {
      throw new EnvironmentFailure(
          (Files.isDirectory(file) ? "is a folder" : "is not a regular file (a pipe or a device)")
              + "; give the path of a spec file");
    }
    // Read one byte past the limit and no more, so a 50 MB file costs nothing.
    try (InputStream in = Files.newInputStream(file)) {
      return check(label, in.readNBytes(SafeYaml.MAX_BYTES + 1), env, skipRules, specSuppressions);
    }
  }

  public Checked check(String label, byte[] bytes, Optional<String> env, Set<String> skipRules) {
    return check(label, bytes, env, skipRules, true);
  }

  public Checked check(
      String label,
      byte[] bytes,
      Optional<String> env,
      Set<String> skipRules,
      boolean specSuppressions) {
    SpecReader.Result r =
        new SpecReader(type -> compat.get().efaSupported(type)).read(label, bytes, env);
    List<Diagnostic> all = new ArrayList<>(r.diagnostics());
    List<Linter.Suppressed> suppressed = new ArrayList<>();
    Optional<ClusterPlan> plan = r.spec().map(s -> ClusterPlan.of(s, compat.get()));
    if (plan.isPresent()) {
      Linter linter = new Linter(Rules.all(), specSuppressions);
      Linter.Result base = linter.run(plan.get(), r.sources(), skipRules);
      all.addAll(base.findings());
      suppressed.addAll(base.suppressed());
      // Every environment is linted too; a finding the base already has is not repeated.
      Set<Diagnostic> seen = new HashSet<>(base.findings());
      base.suppressed().forEach(q -> seen.add(q.finding()));
      r.environments()
          .forEach(
              (name, resolved) -> {
                ClusterPlan envPlan = ClusterPlan.of(resolved.spec(), compat.get());
                Linter.Result inEnv = linter.run(envPlan, resolved.sources(), skipRules);
                for (Diagnostic d : inEnv.findings()) {
                  if (seen.add(d)) {
                    all.add(SpecReader.inEnvironment(d, name));
                  }
                }
                for (Linter.Suppressed q : inEnv.suppressed()) {
                  if (seen.add(q.finding())) {
                    suppressed.add(
                        new Linter.Suppressed(
                            SpecReader.inEnvironment(q.finding(), name), q.justification()));
                  }
                }
              });
    }
    Collections.sort(all);
    Collections.sort(suppressed);
    return new Checked(label, bytes, plan, r.sources(), all, suppressed);
  }

  public RenderedTree render(ClusterPlan plan, Templates templates, String specLabel)
      throws InternalFailure {
    return new Renderer(templates).render(plan, specLabel);
  }

  /**
   * As {@link #render(ClusterPlan, Templates, String)}, with the node settings Terraform accepts
   * without an allow ({@code plan/NodeSettings.accepted}).
   */
  public RenderedTree render(
      ClusterPlan plan,
      Templates templates,
      String specLabel,
      java.util.SortedMap<String, java.util.SortedMap<String, Object>> accepted)
      throws InternalFailure {
    return new Renderer(templates).render(plan, specLabel, accepted);
  }
}
