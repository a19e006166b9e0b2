package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import dev.gpugen.testing.TerraformPlan;
import dev.gpugen.testing.TerraformTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every rendered .tf file parses with HashiCorp's HCL parser, and every resource type, data source,
 * argument and nested block in it exists in hashicorp/aws 6.25; the names Terraform resolves across
 * files (variables, locals, resources, outputs) are declared once and exist where they are used.
 */
class TerraformSchemaTest {
  static final ProviderSchema AWS = ProviderSchema.aws();

  /** Specs whose pool names collide with names gpugen uses itself, or with HCL keywords. */
  static final String AWKWARD_POOLS =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: awkward}
      cloud: {provider: aws, region: us-east-1}
      storage:
        lustre: {capacityGiB: 1200, perUnitStorageThroughput: 125}
        checkpointBucket: awkward-ckpt
      pools:
        - {name: "null", instanceType: p5.48xlarge}
        - {name: lustre, instanceType: p5.48xlarge}
        - {name: nodes, instanceType: p5.48xlarge}
        - {name: vpc, instanceType: p5.48xlarge}
        - {name: this, instanceType: p5.48xlarge}
        - {name: compat-instance, instanceType: p5.48xlarge}
        - {name: a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p, instanceType: p4d.24xlarge}
      software: {driver: "580.95.05", cuda: "12.8"}
      """;

  static Stream<Rendered> all() throws IOException {
    List<Rendered> out = new ArrayList<>();
    for (var dir : TerraformCases.awsGoldens()) {
      out.add(Rendered.of(dir.resolve("spec.yaml")));
    }
    out.add(Rendered.of("awkward-pools", AWKWARD_POOLS.getBytes(StandardCharsets.UTF_8)));
    return out.stream();
  }

  /**
   * The renders TerraformPlanTest formats are the goldens and examples; this one, whose pool names
   * are the longest and oddest, passes the real {@code terraform fmt -check} too.
   */
  @TerraformTest
  @Test
  void theAwkwardPoolsRenderIsTerraformFmtClean(@TempDir Path dir) throws Exception {
    Rendered r = Rendered.of("awkward-pools", AWKWARD_POOLS.getBytes(StandardCharsets.UTF_8));
    for (Map.Entry<String, String> f : r.tf().entrySet()) {
      Path p = dir.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
    }
    assertTrue(r.tf().size() > 5, r.tf().keySet().toString());
    TerraformPlan.fmtCheck(dir).assertOk();
    // The check can fail: one line indented as terraform fmt would not.
    Path variables = dir.resolve("variables.tf");
    Files.writeString(variables, Files.readString(variables).replaceFirst("\n  ", "\n   "));
    RealTools.Result messy = TerraformPlan.fmtCheck(dir);
    assertEquals(3, messy.exitCode(), messy.output());
    assertTrue(messy.output().contains("variables.tf"), messy.output());
  }

  @RealToolsTest
  @TestFactory
  Stream<DynamicTest> everyNameExistsInTheProviderSchema() throws IOException {
    return all()
        .map(
            r ->
                DynamicTest.dynamicTest(
                    r.label(),
                    () -> {
                      List<String> problems = new ArrayList<>();
                      r.parsed().forEach((file, body) -> problems.addAll(AWS.check(file, body)));
                      assertEquals(List.of(), problems);
                    }));
  }

  @RealToolsTest
  @TestFactory
  Stream<DynamicTest> namesAreDeclaredOnceAndUsedOnlyWhenDeclared() throws IOException {
    return all()
        .flatMap(
            r ->
                r.modules().stream()
                    .map(
                        m ->
                            DynamicTest.dynamicTest(
                                r.label() + (m.isEmpty() ? "" : " " + m),
                                () -> namesAreConsistent(r, m))));
  }

  /** One module's names: each module is its own namespace. */
  private static void namesAreConsistent(Rendered r, String module) {
    Map<String, JsonNode> parsed = r.parsed(module);
    Map<String, List<String>> declared = new TreeMap<>();
    parsed.forEach(
        (file, body) -> {
          names(body.path("variable")).forEach(n -> add(declared, "var." + n, file));
          names(body.path("output")).forEach(n -> add(declared, "output." + n, file));
          names(body.path("check")).forEach(n -> add(declared, "check." + n, file));
          for (JsonNode locals : body.path("locals")) {
            names(locals).forEach(n -> add(declared, "local." + n, file));
          }
          for (String type : names(body.path("resource"))) {
            names(body.path("resource").path(type))
                .forEach(n -> add(declared, type + "." + n, file));
          }
          for (String type : names(body.path("data"))) {
            names(body.path("data").path(type))
                .forEach(n -> add(declared, "data." + type + "." + n, file));
          }
        });
    List<String> twice = new ArrayList<>();
    declared.forEach(
        (name, files) -> {
          if (files.size() > 1) {
            twice.add(name + " in " + files);
          }
        });
    assertEquals(List.of(), twice, "declared more than once");

    // References in the source text: var.X, local.X, and resource/data addresses.
    Set<String> used = new TreeSet<>();
    Pattern ref =
        Pattern.compile(
            "(?<![A-Za-z0-9_.\"])(var|local|data\\.aws_[a-z0-9_]+|aws_[a-z0-9_]+)\\.([A-Za-z_][A-Za-z0-9_-]*)");
    r.tf(module)
        .values()
        .forEach(
            text -> {
              for (String line : text.split("\n")) {
                // A moved block's from is an address of an earlier layout, declared nowhere now.
                String code =
                    line.strip().startsWith("#") || line.strip().startsWith("from ") ? "" : line;
                Matcher m = ref.matcher(code);
                while (m.find()) {
                  used.add(m.group(1) + "." + m.group(2));
                }
              }
            });
    TreeSet<String> undeclared = new TreeSet<>(used);
    undeclared.removeAll(declared.keySet());
    assertEquals(Set.of(), undeclared, "used but not declared");

    TreeSet<String> unusedVariables = new TreeSet<>();
    declared.keySet().stream()
        .filter(n -> n.startsWith("var.") && !used.contains(n))
        .forEach(unusedVariables::add);
    assertEquals(Set.of(), unusedVariables, "variables no .tf file uses");

    if (!module.isEmpty()) {
      return;
    }
    TreeSet<String> tfvars = new TreeSet<>();
    r.tfvars().fieldNames().forEachRemaining(n -> tfvars.add("var." + n));
    tfvars.removeAll(declared.keySet());
    assertEquals(Set.of(), tfvars, "terraform.tfvars.json sets variables that are not declared");
  }

  @RealToolsTest
  @Test
  void theParserRejectsBrokenHclSoItsSilenceMeansSomething() {
    AssertionError e =
        org.junit.jupiter.api.Assertions.assertThrows(
            AssertionError.class,
            () ->
                Hcl2Json.parse(
                    Map.of("broken.tf", "resource \"aws_vpc\" \"x\" {\n  a = \"b\n}\n")));
    assertTrue(e.getMessage().contains("broken.tf"), e.getMessage());
  }

  @RealToolsTest
  @Test
  void theSchemaWalkReportsUnknownNames() throws IOException {
    String tf =
        """
        resource "aws_instance" "x" {
          instance_typo = "p5.48xlarge"
          root_block_device = { encrypted = true }
          metadata_options {
            http_tokenz = "required"
          }
          dynamic "network_interfacez" {
            for_each = []
            content {}
          }
        }

        resource "aws_gpu_cluster" "y" {}

        data "aws_amis_by_magic" "z" {}
        """;
    List<String> problems = AWS.check("x.tf", Hcl2Json.parse(Map.of("x.tf", tf)).get("x.tf"));
    assertEquals(
        new TreeSet<>(
            List.of(
                "x.tf: resource type aws_gpu_cluster does not exist in hashicorp/aws",
                "x.tf: aws_instance.x: dynamic \"network_interfacez\" is not a nested block",
                "x.tf: aws_instance.x.instance_typo does not exist in hashicorp/aws",
                "x.tf: aws_instance.x.metadata_options.http_tokenz does not exist in hashicorp/aws",
                "x.tf: aws_instance.x.root_block_device is a nested block, written as an argument",
                "x.tf: data source aws_amis_by_magic does not exist in hashicorp/aws")),
        new TreeSet<>(problems));
  }

  @Test
  void specsForOtherCloudsGetNoTerraformForAws() {
    String onPrem =
        """
        apiVersion: gpugen/v1
        kind: GpuCluster
        metadata: {name: elsewhere}
        cloud: {provider: static}
        pools:
          - name: dgx
            gpu: {model: h100-sxm, count: 8}
            hosts: [{name: dgx-01, address: 192.0.2.10}]
        software: {driver: "580.95.05", cuda: "12.8"}
        """;
    Rendered r = Rendered.of("static", onPrem.getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(), List.copyOf(r.terraform().keySet()), "no Terraform at all");
  }

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    Iterator<String> it = node.fieldNames();
    it.forEachRemaining(out::add);
    return out;
  }

  private static void add(Map<String, List<String>> m, String name, String file) {
    m.computeIfAbsent(name, k -> new ArrayList<>()).add(file);
  }
}
