package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Gpugen;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** One spec rendered in memory, with its Terraform files as text and as parsed HCL. */
record Rendered(String label, ClusterSpec spec, SortedMap<String, String> terraform) {
  static final Path GOLDEN = Path.of("src/test/resources/golden");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The golden cases with Terraform for AWS; static specs render none, GCP ones are apart. */
  static List<Path> awsGoldenCases() throws IOException {
    try (Stream<Path> s = Files.list(GOLDEN)) {
      return s.filter(p -> Files.isRegularFile(p.resolve("spec.yaml")))
          .filter(p -> Files.isRegularFile(p.resolve("expected/terraform/instances.tf")))
          .sorted()
          .toList();
    }
  }

  static Gpugen gpugen() {
    return new Gpugen(CompatTable.load());
  }

  /** Reads, validates (errors fail the test) and renders a spec file. */
  static Rendered of(Path specFile) {
    try {
      return of(specFile.toString(), Files.readAllBytes(specFile));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Rendered of(String label, byte[] yaml) {
    Gpugen g = gpugen();
    Gpugen.Checked c = g.check(label, yaml, Optional.empty(), Set.of());
    String errors =
        c.diagnostics().stream()
            .filter(d -> d.severity() == Severity.ERROR)
            .map(Diagnostic::toString)
            .collect(Collectors.joining("\n"));
    if (c.spec().isEmpty() || !errors.isEmpty()) {
      fail(label + " does not validate:\n" + errors);
    }
    return of(label, c.spec().get());
  }

  /** Renders a model built in code (bypassing the reader, e.g. with hostile values). */
  static Rendered of(String label, ClusterSpec spec) {
    try {
      RenderedTree tree =
          gpugen()
              .render(
                  dev.gpugen.TestSpecs.plan(spec), Templates.load(Optional.empty()), "spec.yaml");
      return new Rendered(label, spec, terraformOf(tree));
    } catch (InternalFailure e) {
      throw new IllegalStateException(label + ": " + e.getMessage(), e);
    }
  }

  /** The files under terraform/, by name. */
  static SortedMap<String, String> terraformOf(RenderedTree tree) {
    SortedMap<String, String> out = new TreeMap<>();
    tree.files()
        .forEach(
            (path, file) -> {
              if (path.startsWith("terraform/")) {
                out.put(
                    path.substring("terraform/".length()),
                    new String(file.content(), StandardCharsets.UTF_8));
              }
            });
    return out;
  }

  /** The .tf files only. */
  SortedMap<String, String> tf() {
    SortedMap<String, String> out = new TreeMap<>(terraform);
    out.keySet().removeIf(name -> !name.endsWith(".tf"));
    return out;
  }

  /** terraform.tfvars.json, parsed. */
  JsonNode tfvars() {
    try {
      return JSON.readTree(terraform.get("terraform.tfvars.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every .tf file parsed by HashiCorp's parser (file name to body); parsed once per text. */
  Map<String, JsonNode> parsed() {
    return PARSED.computeIfAbsent(
        tf(),
        files -> {
          try {
            return Hcl2Json.parse(files);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private static final Map<SortedMap<String, String>, Map<String, JsonNode>> PARSED =
      new java.util.concurrent.ConcurrentHashMap<>();

  @Override
  public String toString() {
    return label;
  }
}
