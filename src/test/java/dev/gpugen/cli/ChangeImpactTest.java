package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A re-render says what the spec change does to running nodes, from the values the previous render
 * recorded in its manifest: what replaces nodes, what applies in place, and a driver change's
 * upgrade-driver.yml, which the next steps then name instead of site.yml.
 */
class ChangeImpactTest {
  @TempDir Path tmp;

  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata:
        name: impact
      cloud:
        provider: aws
        region: us-east-1
      network:
        sshIngressCidrs: []
      pools:
        - name: h100
          instanceType: p5.48xlarge
          count: 2
          market: on-demand
          rootVolume: {sizeGiB: 500}
      software:
        driver: "580.95.05"
        cuda: "12.8"
      kernel:
        sysctl: {kernel.numa_balancing: 0, vm.max_map_count: 262144}
      """;

  private Cli render(String spec) throws Exception {
    Path file = tmp.resolve("cluster.yaml");
    Files.writeString(file, spec);
    return Cli.run("render", file.toString(), "-o", tmp.resolve("out").toString());
  }

  @Test
  void aFirstRenderAndAnUnchangedOneSayNothingOfImpact() throws Exception {
    Cli first = render(SPEC);
    assertEquals(0, first.exit(), first.toString());
    assertFalse(first.out().contains("What the change does"), first.out());
    Cli again = render(SPEC);
    assertEquals(0, again.exit(), again.toString());
    assertFalse(again.out().contains("What the change does"), again.out());
  }

  @Test
  void eachChangeIsClassedByWhatItDoesToRunningNodes() throws Exception {
    assertEquals(0, render(SPEC).exit());
    Cli r =
        render(
            SPEC.replace("market: on-demand", "market: spot")
                .replace("count: 2", "count: 4")
                .replace("sizeGiB: 500", "sizeGiB: 800")
                .replace("\"580.95.05\"", "\"570.195.03\""));
    assertEquals(0, r.exit(), r.toString());
    String o = r.out();
    int head =
        o.indexOf(
            "What the change does to running nodes (against the previous render's values):\n");
    int market =
        o.indexOf(
            "  replaces nodes     pools[h100].market: on-demand -> spot (EC2 cannot move a running"
                + " instance between spot and on-demand: terraform apply replaces every node of the"
                + " pool)\n");
    int driver =
        o.indexOf(
            "  upgrade-driver.yml pools[h100].software.driver: 580.95.05 -> 570.195.03 (run"
                + " ansible-playbook upgrade-driver.yml");
    int count =
        o.indexOf("  in place           pools[h100].count: 2 -> 4 (terraform apply adds nodes)\n");
    int volume =
        o.indexOf(
            "  in place           pools[h100].rootVolume.sizeGiB: 500 -> 800 (terraform apply"
                + " modifies each node's root volume)\n");
    assertTrue(head >= 0 && head < market && market < driver && driver < count, o);
    assertTrue(volume > driver, o);
    // The next steps name the rolling upgrade, not site.yml.
    assertTrue(
        o.contains(
            " && ansible-playbook -i gpugen-inventory upgrade-driver.yml)   (the driver changed"),
        o);
    assertFalse(o.contains("ansible-playbook -i gpugen-inventory site.yml"), o);
  }

  /**
   * A render after the one that changed the driver sees no change, yet the upgrade is still due:
   * the manifest keeps it pending (until gpugen up has run upgrade-driver.yml), so the next steps
   * still name it.
   */
  @Test
  void theDriverUpgradeStaysInTheNextStepsOfALaterRender() throws Exception {
    assertEquals(0, render(SPEC).exit());
    String changed = SPEC.replace("\"580.95.05\"", "\"570.195.03\"");
    assertEquals(0, render(changed).exit());
    Cli again = render(changed.replace("count: 2", "count: 3"));
    assertEquals(0, again.exit(), again.toString());
    assertFalse(again.out().contains("software.driver"), again.out());
    assertTrue(
        again.out().contains(" && ansible-playbook -i gpugen-inventory upgrade-driver.yml)"),
        again.out());
    assertTrue(
        Files.readString(tmp.resolve("out/.gpugen-manifest.json"))
            .contains("\"driverUpgradePending\": true"),
        "recorded in the manifest");
  }

  @Test
  void fewerNodesDestroyTheHighestAndANewImageReachesNewNodesOnly() throws Exception {
    assertEquals(0, render(SPEC).exit());
    Cli r =
        render(
            SPEC.replace("count: 2", "count: 1")
                .replace("  region: us-east-1\n", "  region: us-east-1\n  image: ubuntu-24.04\n"));
    assertEquals(0, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                "  destroys nodes     pools[h100].count: 2 -> 1 (terraform apply destroys the nodes"
                    + " with the highest numbers)\n"),
        r.out());
    assertTrue(
        r.out()
            .contains(
                "  new nodes only     cloud.image: ubuntu-22.04 -> ubuntu-24.04 (running nodes keep"
                    + " their image, since the Terraform ignores a new AMI for them; new nodes boot"
                    + " the new one; terraform apply -replace='aws_instance.<pool>[N]' replaces one"
                    + " node at a time)"),
        r.out());
  }

  @Test
  void aRemovedPoolDestroysItsNodesAndOtherSettingsApplyInPlace() throws Exception {
    String two =
        SPEC.replace(
            "software:\n", "  - name: l4\n    instanceType: g6.xlarge\n    count: 1\nsoftware:\n");
    assertEquals(0, render(two).exit());
    Cli removed = render(SPEC);
    assertEquals(0, removed.exit(), removed.toString());
    assertTrue(
        removed
            .out()
            .contains(
                "  destroys nodes     pools[l4]: 1 nodes -> (none) (the pool is gone: terraform"
                    + " apply destroys its nodes)\n"),
        removed.out());
    Cli other = render(SPEC.replace("vm.max_map_count: 262144", "vm.max_map_count: 524288"));
    assertEquals(0, other.exit(), other.toString());
    assertTrue(
        other
            .out()
            .contains(
                "  in place           other settings (terraform apply, then ansible-playbook"
                    + " site.yml, applies them)\n"),
        other.out());
  }

  /**
   * The first render that pins EKS add-ons over a folder an earlier gpugen rendered (its manifest
   * records no add-on version): each pin is named with how to keep the running build instead, and
   * the Pod Identity Agent the earlier render installed as going; a later pin change is in place.
   */
  @Test
  void theFirstAddOnPinsOverAnEarlierEksRenderSayHowToKeepTheRunningBuilds() throws Exception {
    String spec =
        Files.readString(
            dev.gpugen.Golden.repo().resolve("src/test/resources/golden/aws-eks-pull/spec.yaml"));
    assertEquals(0, render(spec).exit());
    Path manifest = tmp.resolve("out/.gpugen-manifest.json");
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode m =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(manifest.toFile());
    com.fasterxml.jackson.databind.node.ObjectNode values =
        (com.fasterxml.jackson.databind.node.ObjectNode) m.path("source").path("values");
    assertTrue(values.has("kubernetes.addons.vpc-cni"), values.toString());
    values.remove(
        java.util.List.of(
            "kubernetes.addons.coredns",
            "kubernetes.addons.kube-proxy",
            "kubernetes.addons.vpc-cni"));
    json.writerWithDefaultPrettyPrinter().writeValue(manifest.toFile(), m);
    Cli r = render(spec);
    assertEquals(0, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                "  in place           kubernetes.addons.vpc-cni: (none) -> v1.20.1-eksbuild.3"
                    + " (terraform apply sets the running add-on to this version; the previous"
                    + " render let EKS choose"),
        r.out());
    assertTrue(r.out().contains("--addon-name vpc-cni --query addon.addonVersion)"), r.out());
    assertTrue(
        r.out()
            .contains(
                "  in place           kubernetes.addons.eks-pod-identity-agent: EKS's default ->"
                    + " (none) (terraform apply deletes the add-on an earlier gpugen installed"),
        r.out());
    Cli pinned =
        render(
            spec.replace(
                "  version: \"1.32\"\n",
                "  version: \"1.32\"\n  addons: {vpc-cni: v1.19.2-eksbuild.1}\n"));
    assertEquals(0, pinned.exit(), pinned.toString());
    assertTrue(
        pinned
            .out()
            .contains(
                "kubernetes.addons.vpc-cni: v1.20.1-eksbuild.3 -> v1.19.2-eksbuild.1 (terraform"
                    + " apply updates the add-on in place"),
        pinned.out());
    assertFalse(pinned.out().contains("eks-pod-identity-agent"), pinned.out());
  }

  /**
   * count takes the lowest keys retire does not list, so deleting a retire entry moves a node: the
   * render refuses it unless allowed, and names the keys either way.
   */
  @Test
  void aDeletedRetireEntryThatMovesANodeIsRefusedUnlessAllowedAndTheKeysAreNamed()
      throws Exception {
    String retired = SPEC.replace("count: 2\n", "count: 2\n    retire: [1]\n");
    assertEquals(0, render(retired).exit());
    Cli refused = render(SPEC);
    assertEquals(1, refused.exit(), refused.toString());
    assertTrue(
        refused
            .err()
            .contains(
                "pools[h100]: its node keys change: terraform apply destroys node 2, launches node"
                    + " 1 (count takes the lowest keys retire does not list"),
        refused.err());
    Cli allowed =
        Cli.run(
            "render",
            tmp.resolve("cluster.yaml").toString(),
            "-o",
            tmp.resolve("out").toString(),
            "--allow-replace");
    assertEquals(0, allowed.exit(), allowed.toString());
    assertTrue(
        allowed
            .out()
            .contains(
                "  destroys nodes     pools[h100].nodes: 0,2 -> 0,1 (terraform apply destroys node"
                    + " 2 and launches node 1)\n"),
        allowed.out());
    Cli fewer = render(SPEC.replace("count: 2", "count: 1"));
    assertEquals(0, fewer.exit(), fewer.toString());
    assertTrue(
        fewer
            .out()
            .contains(
                "  destroys nodes     pools[h100].nodes: 0,1 -> 0 (terraform apply destroys node"
                    + " 1)\n"),
        fewer.out());
  }
}
