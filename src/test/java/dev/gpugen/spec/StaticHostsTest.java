package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Static pools: hosts and their vars are refused unless plain, and the GPUs come from gpu:. */
class StaticHostsTest {
  private static String spec(String host) {
    return """
        apiVersion: gpugen/v1
        kind: GpuCluster
        metadata: {name: metal}
        cloud: {provider: static}
        pools:
          - name: gpu
            gpu: {model: a100-sxm, count: 8}
            hosts:
              - %s
        software: {driver: "580.95.05", cuda: "12.8"}
        """
        .formatted(host);
  }

  private static List<String> errors(String yaml) {
    Gpugen.Checked c =
        TestSpecs.gpugen()
            .check("spec.yaml", yaml.getBytes(StandardCharsets.UTF_8), Optional.empty(), Set.of());
    return c.diagnostics().stream()
        .filter(d -> d.severity() == Severity.ERROR)
        .map(d -> d.ruleId() + " " + d.path())
        .toList();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{name: \"gpu-01; rm -rf /\", address: 10.0.0.1}",
        "{name: \"{{ lookup('pipe','id') }}\", address: 10.0.0.1}",
        "{name: gpu-01, address: \"10.0.0.1 -oProxyCommand=x\"}",
        "{name: gpu-01, address: \"$(id)\"}",
        "{name: gpu-01, address: 10.0.0.1, vars: {ansible_user: \"{{ x }}\"}}",
        "{name: gpu-01, address: 10.0.0.1, vars: {gpugen_pool: other}}",
        "{name: gpu-01, address: 10.0.0.1, vars: {\"ansible-user\": ops}}",
        "{name: GPU_01, address: 10.0.0.1}",
        "{name: all, address: 10.0.0.1}"
      })
  void hostileOrConfusingHostsAreErrors(String host) {
    assertTrue(!errors(spec(host)).isEmpty(), host);
  }

  @Test
  void plainHostsWithIpv4Ipv6AndDnsAddressesAreAccepted() {
    String yaml =
        spec(
            "{name: gpu-01, address: 10.0.0.1}\n"
                + "      - {name: gpu-02.lab.example, address: \"fd00::12\"}\n"
                + "      - {name: gpu-03, address: gpu-03.lab.example, vars: {ansible_port: \"2222\"}}");
    assertEquals(List.of(), errors(yaml));
    ClusterSpec s = TestSpecs.parse(yaml);
    assertEquals(3, s.pools().get(0).count(), "a static pool has as many nodes as hosts");
  }

  @Test
  void aStaticPoolNeedsGpuAndHostsAndACloudPoolAnInstanceType() {
    assertEquals(
        List.of("spec-pool-shape pools[0]", "spec-pool-shape pools[0]"),
        errors(
            """
            apiVersion: gpugen/v1
            kind: GpuCluster
            metadata: {name: metal}
            cloud: {provider: static}
            pools: [{name: gpu}]
            software: {driver: "580.95.05", cuda: "12.8"}
            """));
    assertEquals(
        List.of("spec-pool-shape pools[0]"),
        errors(
            """
            apiVersion: gpugen/v1
            kind: GpuCluster
            metadata: {name: cloudy}
            cloud: {provider: aws, region: us-east-1}
            pools: [{name: gpu}]
            software: {driver: "580.95.05", cuda: "12.8"}
            """));
  }
}
