package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
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

  private static List<Diagnostic> errorDiagnostics(String yaml) {
    return TestSpecs.gpugen()
        .check("spec.yaml", yaml.getBytes(StandardCharsets.UTF_8), Optional.empty(), Set.of())
        .diagnostics()
        .stream()
        .filter(d -> d.severity() == Severity.ERROR)
        .toList();
  }

  /**
   * A host called localhost (or named or addressed by a loopback address) would take over every
   * delegate_to: localhost task, the admin kubeconfig fetch among them, or make Ansible configure
   * the controller as a node: refused for GPU hosts and control-plane hosts alike.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "name: localhost|address: 10.0.0.1|name",
        "name: localhost.localdomain|address: 10.0.0.1|name",
        "name: 127.0.0.1|address: 10.0.0.1|name",
        "name: gpu-01|address: 127.0.0.1|address",
        "name: gpu-01|address: 127.1.2.3|address",
        "name: gpu-01|address: \"::1\"|address",
        "name: gpu-01|address: \"0:0:0:0:0:0:0:1\"|address",
        "name: gpu-01|address: \"::\"|address",
        "name: gpu-01|address: 0.0.0.0|address",
        "name: gpu-01|address: localhost|address"
      })
  void localhostIsReservedForTheController(String host) {
    String[] p = host.split("\\|");
    String entry = "{" + p[0] + ", " + p[1] + "}";
    List<Diagnostic> gpu = errorDiagnostics(spec(entry));
    assertEquals(
        List.of("spec-value pools[0].hosts[0]." + p[2]),
        gpu.stream().map(d -> d.ruleId() + " " + d.path()).toList(),
        gpu.toString());
    assertTrue(gpu.get(0).message().contains("controller"), gpu.get(0).message());
    String controlPlane =
        spec("{name: gpu-01, address: 10.0.0.1}")
            + "kubernetes:\n"
            + "  distribution: kubeadm\n"
            + "  version: \"1.33\"\n"
            + "  controlPlane:\n"
            + "    hosts:\n"
            + "      - "
            + entry
            + "\n";
    assertEquals(
        List.of("spec-value kubernetes.controlPlane.hosts[0]." + p[2]),
        errors(controlPlane),
        controlPlane);
  }

  /**
   * A loopback address in a form the grammar read as a DNS name or an IPv6 address: the
   * controller's resolver turns each into 127.0.0.1 (inet_aton's hex and octal forms, IPv4-mapped
   * IPv6, the stock /etc/hosts names of Debian, Ubuntu, Fedora and RHEL), so Ansible would
   * configure the controller as this node.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "0x7f000001",
        "0x7f.0x1",
        "0x7f.0.0.0x1",
        "::ffff:7f00:1",
        "0:0:0:0:0:ffff:7f00:1",
        "::7f00:1",
        "localhost4",
        "localhost6",
        "localhost4.localdomain4",
        "ip6-localhost",
        "ip6-loopback",
        "gpu.localhost"
      })
  void loopbackInAnyFormIsRefused(String address) {
    String entry = "{name: gpu-01, address: \"" + address + "\"}";
    List<Diagnostic> gpu = errorDiagnostics(spec(entry));
    assertEquals(
        List.of("spec-value pools[0].hosts[0].address"),
        gpu.stream().map(d -> d.ruleId() + " " + d.path()).toList(),
        gpu.toString());
    assertTrue(
        gpu.get(0).message().contains("127.0.0.1") || gpu.get(0).message().contains("loopback"),
        gpu.get(0).message());
  }

  /** Addresses that name no one machine: link-local, multicast, reserved, broadcast. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "169.254.169.254|link-local",
        "224.0.0.1|multicast",
        "255.255.255.255|broadcast",
        "fe80::1|link-local",
        "ff02::1|multicast",
        "ip6-allnodes|multicast",
        "::ffff:a00:1|write that IPv4 address instead"
      })
  void addressesOfNoOneHostAreRefused(String row) {
    String[] p = row.split("\\|");
    List<Diagnostic> ds = errorDiagnostics(spec("{name: gpu-01, address: \"" + p[0] + "\"}"));
    assertEquals(1, ds.size(), ds.toString());
    assertEquals("pools[0].hosts[0].address", ds.get(0).path().toString());
    assertTrue(ds.get(0).message().contains(p[1]), ds.get(0).message());
  }

  /**
   * examples/static-baremetal with its inference host renamed like the control-plane host: the
   * rendered inventory.yml has one host per name, so the GPU host would silently take cp-01's place
   * in kube_control_plane at its own address and 10.40.0.5 would vanish. Names are unique across
   * the pools and the control plane.
   */
  @Test
  void aGpuHostNamedLikeAControlPlaneHostIsAnError() throws Exception {
    String example =
        Files.readString(Golden.repo().resolve("examples/static-baremetal/cluster.yaml"));
    String renamed = example.replace("{name: infer-01,", "{name: cp-01,");
    assertTrue(!renamed.equals(example), "the example has infer-01");
    List<Diagnostic> ds = errorDiagnostics(renamed);
    assertEquals(
        List.of("spec-pool-shape kubernetes.controlPlane.hosts[0].name"),
        ds.stream().map(d -> d.ruleId() + " " + d.path()).toList(),
        ds.toString());
    assertTrue(ds.get(0).message().contains("already used by l4.hosts[0]"), ds.get(0).message());
    assertTrue(ds.get(0).message().contains("10.40.0.21"), ds.get(0).message());
    // Two control-plane hosts of one name, or one address under two names, alike.
    String twice =
        example.replace(
            "      - {name: cp-01, address: 10.40.0.5}\n",
            "      - {name: cp-01, address: 10.40.0.5}\n"
                + "      - {name: cp-01, address: 10.40.0.6}\n"
                + "      - {name: cp-03, address: 10.40.0.11}\n");
    assertEquals(
        List.of(
            "spec-pool-shape kubernetes.controlPlane.hosts[1].name",
            "spec-pool-shape kubernetes.controlPlane.hosts[2].address"),
        errors(twice).stream().filter(e -> e.startsWith("spec-pool-shape")).toList());
  }

  /**
   * A GPU server that is also the control plane (a one-box lab) is listed in both places, with the
   * same address and vars: one machine, so no error; any difference is one.
   */
  @Test
  void aGpuHostAlsoListedAsTheControlPlaneIsOneMachine() throws Exception {
    String example =
        Files.readString(Golden.repo().resolve("examples/static-baremetal/cluster.yaml"));
    String same =
        example.replace(
            "      - {name: cp-01, address: 10.40.0.5}\n",
            "      - {name: infer-01, address: 10.40.0.21, vars: {ansible_user: ops}}\n");
    assertEquals(List.of(), errors(same));
    String otherVars =
        example.replace(
            "      - {name: cp-01, address: 10.40.0.5}\n",
            "      - {name: infer-01, address: 10.40.0.21}\n");
    assertEquals(
        List.of(
            "spec-pool-shape kubernetes.controlPlane.hosts[0].name",
            "spec-pool-shape kubernetes.controlPlane.hosts[0].address"),
        errors(otherVars));
  }

  /**
   * Host variables outrank group_vars: vars: {nvidia_driver_version: ...,
   * nccl_network_efa_installer_url: ..., ..._sha256: ...} would install another driver, or an
   * arbitrary installer as root, on that host while the spec says otherwise. Every variable of a
   * gpugen role is refused, naming the spec key that sets it.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "nvidia_driver_version|software.driver",
        "nccl_network_efa_installer_url|mirrors.files",
        "nccl_network_efa_installer_sha256|nccl.env, network.fabric or mirrors.files",
        "prerequisites_sysctl|kernel.sysctl",
        "kubeadm_repo_url|kubernetes (version, cni, controlPlane) or mirrors.kubernetes",
        "validation_nccl_min_bus_bandwidth_gbps|validation.ncclAllReduce.minBusBandwidthGBps",
        "kubernetes_checks_gpus|kubernetes"
      })
  void aHostVariableOfAGpugenRoleIsRefusedWithTheSpecKeyToUse(String row) {
    String[] p = row.split("\\|");
    List<Diagnostic> ds =
        errorDiagnostics(spec("{name: gpu-01, address: 10.0.0.1, vars: {" + p[0] + ": x}}"));
    assertEquals(1, ds.size(), ds.toString());
    Diagnostic d = ds.get(0);
    assertEquals("spec-value", d.ruleId());
    assertEquals("pools[0].hosts[0].vars." + p[0], d.path().toString());
    assertTrue(d.message().contains("gpugen's"), d.message());
    assertTrue(d.hint().orElse("").startsWith("set " + p[1] + " instead"), d.hint().toString());
  }

  /** Every variable the roles and group_vars define, read from the templates themselves. */
  @Test
  void everyVariableOfEveryRoleIsRefusedAsAHostVariable() throws Exception {
    Path roles = Golden.repo().resolve("templates/ansible/roles");
    List<String> variables = new ArrayList<>();
    try (Stream<Path> files = Files.walk(roles)) {
      for (Path f : files.filter(f -> f.toString().contains("/defaults/main.yml")).toList()) {
        for (String line : Files.readAllLines(f)) {
          if (line.matches("[a-z][a-z0-9_]*:.*")) {
            variables.add(line.substring(0, line.indexOf(':')));
          }
        }
      }
    }
    try (Stream<Path> dirs = Files.list(roles)) {
      for (Path role : dirs.toList()) {
        variables.add(role.getFileName() + "_anything");
      }
    }
    assertTrue(variables.size() > 200, variables.toString());
    List<String> accepted = new ArrayList<>();
    for (String v : variables) {
      if (errors(spec("{name: gpu-01, address: 10.0.0.1, vars: {" + v + ": x}}")).isEmpty()) {
        accepted.add(v);
      }
    }
    assertEquals(List.of(), accepted);
    assertEquals(
        List.of(), errors(spec("{name: gpu-01, address: 10.0.0.1, vars: {rack_position: x}}")));
    // The node's name in Kubernetes is the host's own to set (docs/ansible.md).
    assertEquals(
        List.of(),
        errors(spec("{name: gpu-01, address: 10.0.0.1, vars: {kubernetes_node_name: gpu-01}}")));
  }
}
