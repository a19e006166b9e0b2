package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Cli;
import dev.gpugen.compat.EksAddonVersions;
import dev.gpugen.compat.KubernetesSupport;
import dev.gpugen.spec.Distribution;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EKS add-ons are installed at exact versions the spec decides: no data source or most_recent that
 * a later apply would read anew (and so upgrade vpc-cni under running nodes).
 */
class EksAddonPinTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private Path render(Path spec, String edit) throws Exception {
    Path copy = tmp.resolve("spec.yaml");
    Files.writeString(
        copy, edit.isEmpty() ? Files.readString(spec) : Files.readString(spec) + edit);
    Path out = tmp.resolve("out");
    Cli cli = Cli.run("render", copy.toString(), "-o", out.toString());
    assertEquals(0, cli.exit(), cli.toString());
    return out.resolve("terraform");
  }

  private static Map<String, String> pinned(Path terraform) throws Exception {
    JsonNode vars = JSON.readTree(terraform.resolve("terraform.tfvars.json").toFile());
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : vars.path("eks_addon_versions").properties()) {
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }

  @Test
  void theEksRenderPinsEveryAddOnAndAsksEksForNone() throws Exception {
    Path terraform = render(RenderedCase.spec("aws-eks-pull"), "");
    String eks = Files.readString(terraform.resolve("eks.tf"));
    assertFalse(eks.contains("aws_eks_addon_version"), "an add-on version read from EKS floats");
    assertFalse(eks.contains("most_recent"), "an add-on version read from EKS floats");
    assertTrue(
        eks.contains("addon_version               = lookup(local.eks_addon_versions, each.key,"),
        eks);
    // aws-eks-pull runs 1.32: the table's row for it, read from the EKS user guide.
    assertEquals(
        Map.of(
            "coredns", "v1.11.4-eksbuild.24",
            "kube-proxy", "v1.32.9-eksbuild.2",
            "vpc-cni", "v1.20.1-eksbuild.3"),
        pinned(terraform));
  }

  @Test
  void theSpecOverridesAVersionAndOptsIntoThePodIdentityAgent() throws Exception {
    String spec = Files.readString(RenderedCase.spec("aws-eks-pull"));
    assertTrue(spec.contains("  version: \"1.32\"\n"), "the golden spec changed");
    Path copy = tmp.resolve("base.yaml");
    Files.writeString(
        copy,
        spec.replace(
            "  version: \"1.32\"\n",
            "  version: \"1.32\"\n  addons:\n    vpc-cni: v1.19.2-eksbuild.1\n"
                + "    eks-pod-identity-agent: v1.3.4-eksbuild.1\n"));
    Map<String, String> got = pinned(render(copy, ""));
    assertEquals("v1.19.2-eksbuild.1", got.get("vpc-cni"));
    assertEquals("v1.3.4-eksbuild.1", got.get("eks-pod-identity-agent"));
    assertEquals("v1.11.4-eksbuild.24", got.get("coredns"));
  }

  /**
   * Every EKS minor gpugen accepts but the newest has all three core add-ons pinned, so such a spec
   * needs no kubernetes.addons (1.35: no user-guide edition gpugen read lists it yet).
   */
  @Test
  void everyEksMinorUpTo134HasEveryCoreAddOn() {
    for (String minor : KubernetesSupport.minors(Distribution.EKS)) {
      if (minor.equals("1.35")) {
        continue;
      }
      for (String addon : EksAddonVersions.CORE) {
        assertTrue(EksAddonVersions.version(addon, minor).isPresent(), addon + " on " + minor);
      }
    }
    assertEquals(
        java.util.Optional.of("v1.20.4-eksbuild.1"), EksAddonVersions.version("vpc-cni", "1.34"));
  }

  @Test
  void everyRowIsAnExactBuildOfAMinorEksOffers() {
    for (String addon : EksAddonVersions.CORE) {
      assertTrue(EksAddonVersions.SOURCE.containsKey(addon), addon);
      for (String minor : EksAddonVersions.minors(addon)) {
        assertTrue(KubernetesSupport.minors(Distribution.EKS).contains(minor), minor);
        String v = EksAddonVersions.version(addon, minor).orElseThrow();
        assertTrue(v.matches("^v[0-9]+\\.[0-9]+\\.[0-9]+-eksbuild\\.[0-9]+$"), v);
        if (addon.equals("kube-proxy")) {
          assertTrue(v.startsWith("v" + minor + "."), "kube-proxy follows the minor: " + v);
        }
      }
    }
  }

  @Test
  void theAddOnsWaitForTheClusterAloneNotForEveryPool() throws Exception {
    String eks = Files.readString(render(RenderedCase.spec("aws-eks-pull"), "").resolve("eks.tf"));
    int start = eks.indexOf("resource \"aws_eks_addon\" \"this\" {");
    assertTrue(start >= 0, eks);
    String block = eks.substring(start, eks.indexOf("\n}\n", start));
    // One failing GPU pool (spot capacity) would otherwise leave every node without vpc-cni.
    assertFalse(block.contains("module.pool"), block);
    assertFalse(block.contains("depends_on"), block);
    assertTrue(block.contains("aws_eks_cluster.this[0].name"), block);
  }

  /**
   * A tfvars file replaces a map whole: an override of one add-on through
   * eks_addon_version_overrides keeps the other two at the plan's version, every add-on is
   * preserved on delete, and a replacement eks_addon_versions naming only coredns fails the plan
   * instead of deleting vpc-cni and kube-proxy (terraform test, mock_provider, the real
   * hashicorp/aws provider's schema).
   */
  @dev.gpugen.testing.TerraformTest
  @Test
  void anOverrideOfOneAddOnKeepsTheOthersAndAMapWithoutTheCniFailsThePlan() throws Exception {
    Path terraform = render(RenderedCase.spec("aws-eks-pull"), "");
    dev.gpugen.testing.TerraformPlan.Workspace ws = workspace(terraform, "ws");
    String inner = variables(ws, terraform);
    String test =
        TerraformPlanTest.PlanAssertions.MOCK
            + "\nrun \"override\" {\n  command = plan\n  variables {\n"
            + inner
            + "    eks_addon_version_overrides = { coredns = \"v1.11.3-eksbuild.1\" }\n  }\n"
            + "  assert {\n    condition = toset(keys(aws_eks_addon.this)) =="
            + " toset([\"coredns\", \"kube-proxy\", \"vpc-cni\"]) &&"
            + " aws_eks_addon.this[\"coredns\"].addon_version == \"v1.11.3-eksbuild.1\" &&"
            + " aws_eks_addon.this[\"vpc-cni\"].addon_version == \"v1.20.1-eksbuild.3\" &&"
            + " alltrue([for a in aws_eks_addon.this : a.preserve])\n"
            + "    error_message = \"the override dropped an add-on or a pin\"\n  }\n}\n"
            + "\nrun \"replaced\" {\n  command = plan\n  variables {\n"
            + inner.replaceAll("(?m)^    eks_addon_versions = .*\n", "")
            + "    eks_addon_versions = { coredns = \"v1.11.3-eksbuild.1\" }\n  }\n"
            + "  expect_failures = [aws_eks_addon.this]\n}\n";
    dev.gpugen.testing.RealTools.Result r = ws.test("addons", test);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("2 passed, 0 failed"), r.output());
  }

  /**
   * The render's terraform/ folder initialised against the mirror (its ansible/ beside it, which
   * pull mode's upload hashes).
   */
  private dev.gpugen.testing.TerraformPlan.Workspace workspace(Path terraform, String name)
      throws Exception {
    java.util.SortedMap<String, String> tf = new TreeMap<>(files(terraform));
    tf.keySet().removeIf(p -> !TerraformPlanTest.shared(p));
    dev.gpugen.testing.TerraformPlan.Workspace ws =
        dev.gpugen.testing.TerraformPlan.init(tmp.resolve(name), tf);
    Path ansible = terraform.resolveSibling("ansible");
    try (java.util.stream.Stream<Path> s = Files.walk(ansible)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Path to = ws.dir().resolveSibling("ansible").resolve(ansible.relativize(p).toString());
        Files.createDirectories(to.getParent());
        Files.copy(p, to);
      }
    }
    return ws;
  }

  private static java.util.SortedMap<String, String> files(Path terraform) throws Exception {
    java.util.SortedMap<String, String> files = new TreeMap<>();
    try (java.util.stream.Stream<Path> s = Files.walk(terraform)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        files.put(terraform.relativize(p).toString(), Files.readString(p));
      }
    }
    return files;
  }

  /** The render's tfvars as the lines of a run's variables block. */
  private static String variables(dev.gpugen.testing.TerraformPlan.Workspace ws, Path terraform)
      throws Exception {
    String vars =
        TerraformPlanTest.variablesBlock(TerraformPlanTest.variables(ws, "c0", files(terraform)));
    return vars.substring(vars.indexOf('\n') + 1, vars.lastIndexOf("  }"));
  }

  /**
   * With the system pool (examples/aws-h100: 16 tainted spot H100 nodes, 2 on-demand system nodes),
   * CoreDNS runs on the system pool only and tolerates no GPU taint: the add-ons no longer wait for
   * the pools, so a replica would otherwise land on the first GPU node that turned Ready.
   */
  @dev.gpugen.testing.TerraformTest
  @Test
  void withTheSystemPoolCoreDnsRunsThereAndToleratesNoGpuTaint() throws Exception {
    Path terraform = render(RenderedCase.spec("reference"), "");
    dev.gpugen.testing.TerraformPlan.Workspace ws = workspace(terraform, "ws");
    String test =
        TerraformPlanTest.PlanAssertions.MOCK
            + "\nrun \"system\" {\n  command = plan\n  variables {\n"
            + variables(ws, terraform)
            + "  }\n  assert {\n    condition = jsondecode(aws_eks_addon.this[\"coredns\"]"
            + ".configuration_values) == { nodeSelector = { \"gpugen-pool\" = \"gpugen-system\" },"
            + " tolerations = [] }\n"
            + "    error_message = \"CoreDNS: ${aws_eks_addon.this[\"coredns\"]"
            + ".configuration_values}\"\n  }\n}\n";
    dev.gpugen.testing.RealTools.Result r = ws.test("system", test);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("1 passed, 0 failed"), r.output());
  }
}
