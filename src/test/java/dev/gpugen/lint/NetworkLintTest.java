package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Networks EC2 or the plan would refuse are errors at validate, not at plan or apply: VPC and
 * subnet blocks outside /16-/28, blocks in loopback, link-local, multicast or reserved space, a
 * node subnet too small for what the render puts in it, and one that covers the /28s Terraform
 * carves for the NAT gateway and EKS.
 */
class NetworkLintTest {
  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud: {provider: aws, region: us-east-1}
      network: {%s}
      pools:
        - {name: gpu, instanceType: p5.48xlarge, count: %d}
      software: {driver: "580.95.05", cuda: "12.8"}
      %s
      """;

  private static Gpugen.Checked check(String network, int nodes, String tail) {
    return LinterTest.check(SPEC.formatted(network, nodes, tail), Optional.empty(), Set.of());
  }

  /** The ids of the net-* errors of these rules, with their paths. */
  private static List<String> networkErrors(Gpugen.Checked c) {
    return c.diagnostics().stream()
        .filter(d -> d.severity() == Severity.ERROR)
        .filter(
            d ->
                List.of(
                        "net-vpc-cidr-size",
                        "net-cidr-special-range",
                        "net-subnet-too-small",
                        "net-subnet-no-room")
                    .contains(d.ruleId()))
        .map(d -> d.ruleId() + " " + d.path())
        .toList();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "vpcCidr: 10.0.0.0/8|net-vpc-cidr-size network.vpcCidr",
        "vpcCidr: 10.0.0.0/29|net-vpc-cidr-size network.vpcCidr",
        "vpcCidr: 10.0.0.0/16, subnetCidr: 10.0.0.0/29|net-vpc-cidr-size network.subnetCidr",
        "vpcCidr: 127.0.0.0/16|net-cidr-special-range network.vpcCidr",
        "vpcCidr: 224.0.0.0/16|net-cidr-special-range network.vpcCidr",
        "vpcCidr: 169.254.0.0/16|net-cidr-special-range network.vpcCidr",
        "vpcCidr: 0.0.0.0/16|net-cidr-special-range network.vpcCidr",
        "vpcCidr: 240.0.0.0/16|net-cidr-special-range network.vpcCidr",
        "vpcCidr: 10.0.0.0/16, subnetCidr: 10.0.0.0/28|net-subnet-too-small network.subnetCidr",
        "vpcCidr: 10.0.0.0/20|net-subnet-no-room network.vpcCidr",
        "vpcCidr: 10.0.0.0/16, subnetCidr: 10.0.0.0/16|net-subnet-no-room network.subnetCidr"
      })
  void whatAwsOrThePlanRefusesIsAnErrorAtValidate(String row) {
    String[] p = row.split("\\|");
    Gpugen.Checked c = check(p[0], 16, "");
    assertEquals(List.of(p[1]), networkErrors(c), c.diagnostics().toString());
  }

  @Test
  void theSubnetCountsNodesControlPlaneLoadBalancerAndEndpoints() {
    // 11 usable addresses in a /28: 11 nodes fit, 12 do not.
    assertEquals(
        List.of(), networkErrors(check("vpcCidr: 10.0.0.0/24, subnetCidr: 10.0.0.0/28", 11, "")));
    Gpugen.Checked twelve = check("vpcCidr: 10.0.0.0/24, subnetCidr: 10.0.0.0/28", 12, "");
    Diagnostic d = only(twelve, "net-subnet-too-small");
    assertEquals(
        "the node subnet 10.0.0.0/28 has 11 usable addresses (16 less the 5 AWS reserves), but"
            + " the render needs 12: the 12 instances of pool gpu (12)",
        d.message());
    assertEquals(
        Optional.of("use a /27 or larger subnetCidr (and a vpcCidr that holds it)"), d.hint());
    // kubeadm with three control-plane instances behind an internal load balancer: 3 + 8 more.
    String kubeadm =
        "kubernetes: {distribution: kubeadm, version: \"1.33\", controlPlane: {count: 3}}";
    assertEquals(
        List.of(),
        networkErrors(check("vpcCidr: 10.0.0.0/24, subnetCidr: 10.0.0.0/27", 16, kubeadm)));
    Gpugen.Checked cp = check("vpcCidr: 10.0.0.0/24, subnetCidr: 10.0.0.0/27", 17, kubeadm);
    assertTrue(
        only(cp, "net-subnet-too-small")
            .message()
            .endsWith(
                "needs 28: the 17 instances of pool gpu (17), the 3 control-plane instances (3),"
                    + " the control plane's internal load balancer (8)"),
        cp.diagnostics().toString());
    // Air-gapped: the interface endpoints take one address each.
    Gpugen.Checked gapped =
        check("vpcCidr: 10.0.0.0/24, subnetCidr: 10.0.0.0/28, internet: none", 9, "");
    assertTrue(
        only(gapped, "net-subnet-too-small").message().contains("the 3 interface endpoints ("),
        gapped.diagnostics().toString());
  }

  @Test
  void anExistingVpcAndTheDefaultsAreLeftAlone() {
    assertEquals(List.of(), networkErrors(check("vpcCidr: 10.0.0.0/16", 16, "")));
    assertEquals(List.of(), networkErrors(check("", 64, "")));
    assertEquals(
        List.of(),
        networkErrors(
            check("vpcId: vpc-0abc12345def67890, subnetId: subnet-0abc12345def67890", 16, "")));
  }

  private static Diagnostic only(Gpugen.Checked c, String rule) {
    List<Diagnostic> ds = LinterTest.of(c, rule);
    assertEquals(1, ds.size(), c.diagnostics().toString());
    return ds.get(0);
  }
}
