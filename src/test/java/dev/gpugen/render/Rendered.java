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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** One spec rendered in memory, with its Terraform files as text and as parsed HCL. */
record Rendered(String label, ClusterSpec spec, SortedMap<String, String> terraform) {
  static final Path GOLDEN = Path.of("src/test/resources/golden");
  private static final ObjectMapper JSON = new ObjectMapper();

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

  /** The .tf files only, of every module (the pool module's as modules/pool/NAME.tf). */
  SortedMap<String, String> tf() {
    SortedMap<String, String> out = new TreeMap<>(terraform);
    out.keySet().removeIf(name -> !name.endsWith(".tf"));
    return out;
  }

  /** The .tf files of one module: "" for the root module, else its folder (modules/pool). */
  SortedMap<String, String> tf(String module) {
    SortedMap<String, String> out = tf();
    out.keySet()
        .removeIf(
            name ->
                !(module.isEmpty()
                    ? !name.contains("/")
                    : name.startsWith(module + "/")
                        && !name.substring(module.length() + 1).contains("/")));
    return out;
  }

  /** The modules of the render: "" for the root, then each folder holding .tf files. */
  java.util.List<String> modules() {
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    for (String name : tf().keySet()) {
      out.add(name.contains("/") ? name.substring(0, name.lastIndexOf('/')) : "");
    }
    return java.util.List.copyOf(out);
  }

  /** One module's .tf files parsed, by file name (its path as in {@link #tf()}). */
  Map<String, JsonNode> parsed(String module) {
    Map<String, JsonNode> out = new TreeMap<>(parsed());
    out.keySet().retainAll(tf(module).keySet());
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
