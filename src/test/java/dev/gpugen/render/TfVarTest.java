package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Terraform variables are one list: each {@link TfVar} produces its {@code variable} block and its
 * terraform.tfvars.json entry, so the two cannot disagree. The HCL side (every variable set or
 * defaulted, and read by some block) is checked on the parsed render by {@code
 * TerraformVariablesTest}.
 */
class TfVarTest {
  @Test
  void aBlockIsFormattedAsTerraformFmtFormatsIt() {
    TfVar v =
        TfVar.of("gpu_a_count", "number", "Nodes of \"gpu-a\" ${x}.")
            .defaultTo(0)
            .validation("{var} >= 0 && floor({var}) == {var}", "The gpu_a_count must be whole.");
    assertEquals(
        """
        variable "gpu_a_count" {
          description = "Nodes of \\"gpu-a\\" $${x}."
          type        = number
          default     = 0

          validation {
            condition     = var.gpu_a_count >= 0 && floor(var.gpu_a_count) == var.gpu_a_count
            error_message = "The gpu_a_count must be whole."
          }
        }""",
        v.hcl());
  }

  @Test
  void aValueSpanningLinesIsNotAligned() {
    TfVar v =
        TfVar.of("t", "list(object({\n    key = string\n  }))", "Taints.")
            .defaultTo(List.of())
            .validation("alltrue([\n      true,\n    ])", "Always.");
    assertEquals(
        """
        variable "t" {
          description = "Taints."
          type = list(object({
            key = string
          }))
          default = []

          validation {
            condition = alltrue([
              true,
            ])
            error_message = "Always."
          }
        }""",
        v.hcl());
  }

  @Test
  void defaultsAreHclLiteralsAndOnlyTheShapesVariablesTake() {
    assertEquals("null", TfVar.literal(null));
    assertEquals("\"a\\\"b\"", TfVar.literal("a\"b"));
    assertEquals("true", TfVar.literal(true));
    assertEquals("1200", TfVar.literal(1200));
    assertEquals("{}", TfVar.literal(Map.of()));
    assertThrows(IllegalArgumentException.class, () -> TfVar.literal(List.of("x")));
    assertThrows(IllegalArgumentException.class, () -> TfVar.literal(1.5));
  }

  @Test
  void aNameThatIsNoIdentifierIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> TfVar.of("a-b", "string", "x"));
    assertThrows(IllegalArgumentException.class, () -> TfVar.of("a\"b", "string", "x"));
  }

  @Test
  void aValueIsWrittenOnlyWhenSetAndNullStaysNull() throws IOException {
    ClusterPlan plan =
        TestSpecs.plan(TestSpecs.read(Path.of("examples/aws-h100/cluster.yaml"), Optional.empty()));
    TfVar unset = TfVar.of("kms", "string", "x").defaultTo(null);
    assertEquals(Optional.empty(), unset.value(new TerraformView(plan)));
    Map<String, Object> m = new TreeMap<>();
    unset.set(p -> null).value(new TerraformView(plan)).ifPresent(v -> m.put("kms", v.json()));
    assertTrue(m.containsKey("kms"));
    assertEquals(null, m.get("kms"));
    assertEquals(
        Optional.empty(), unset.setIf(p -> false, p -> "x").value(new TerraformView(plan)));
  }

  /**
   * The declarations are the same for every spec: variables.tf and gke-variables.tf are static
   * files, so a variable whose block depended on the spec would be a bug. Two different plans see
   * the same blocks (the lists are constants; what varies is only the values).
   */
  @Test
  void theDeclarationsAreConstants() {
    assertTrue(TerraformVariables.AWS.stream().mapToLong(s -> s.variables().size()).sum() > 40);
    assertTrue(TerraformVariables.awsFile().contains("variable \"pools\" {"));
    assertTrue(TerraformVariables.gkeFile().contains("variable \"pools\" {"));
  }

  /**
   * Over every golden case with Terraform: names are unique, terraform.tfvars.json holds exactly
   * the variables with a value, and a variable without a default gets a value that is not null.
   */
  @TestFactory
  Stream<DynamicTest> tfvarsIsTheListsValuesAndRequiredVariablesAreSet() throws IOException {
    List<Path> specs = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("src/test/resources/golden"))) {
      s.filter(p -> Files.isDirectory(p.resolve("expected/terraform")))
          .map(p -> p.resolve("spec.yaml"))
          .sorted()
          .forEach(specs::add);
    }
    assertTrue(
        specs.stream().map(Path::toString).anyMatch(n -> n.contains("gcp-gke"))
            && specs.stream().map(Path::toString).anyMatch(n -> n.contains("aws-pull")),
        "the cases include GKE and pull mode: " + specs);
    return specs.stream()
        .map(
            spec ->
                DynamicTest.dynamicTest(
                    spec.getParent().getFileName().toString(),
                    () -> {
                      ClusterPlan plan = TestSpecs.plan(TestSpecs.read(spec, Optional.empty()));
                      TerraformView view = new TerraformView(plan);
                      List<TfVar> all = new ArrayList<>();
                      (plan.gke() ? TerraformVariables.GKE : TerraformVariables.AWS)
                          .forEach(s -> all.addAll(s.variables()));
                      TreeSet<String> names = new TreeSet<>();
                      TreeSet<String> withValue = new TreeSet<>();
                      for (TfVar v : all) {
                        assertTrue(names.add(v.name()), v.name() + " declared twice");
                        Optional<TfVar.Value> value = v.value(view);
                        value.ifPresent(x -> withValue.add(v.name()));
                        if (v.defaultValue().isEmpty()) {
                          assertTrue(
                              value.isPresent() && value.get().json() != null,
                              v.name() + " has no default and no value");
                        }
                      }
                      assertEquals(withValue, new TreeSet<>(view.tfvars().keySet()));
                    }));
  }
}
