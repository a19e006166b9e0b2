package dev.gpugen.lint.rules.spec;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pool says what its machines are the way its provider needs: an instance or machine type on a
 * cloud; on bare metal the GPUs and the hosts, each host named once and reached at its own address.
 */
public final class SpecPoolShape extends Rule {
  // Host names Ansible reserves or gpugen uses as group names (host and group names share a
  // namespace in Ansible).
  private static final Set<String> RESERVED = Set.of("all", "ungrouped", "spot");

  public SpecPoolShape() {
    super(
        "spec-pool-shape",
        Severity.ERROR,
        "a pool lacks what its provider needs, or two static hosts share a name or address",
        "On aws and gcp a pool's instanceType (EC2 instance type or GCP machine type) says what"
            + " the nodes are; gpu and hosts belong to static pools. On static a pool has no"
            + " instance type to derive the GPUs from, so it declares gpu: {model, count} and"
            + " lists its hosts; the rendered inventory.yml names each host once, so two hosts with"
            + " one name (or one address), GPU hosts and kubernetes.controlPlane.hosts alike, would"
            + " silently run as one: a GPU host named like a control-plane host would take its"
            + " place in kube_control_plane at its own address. A GPU host that is also a"
            + " control-plane host is listed in both places with the same address and vars.");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    CompatTable table = plan.compat();
    boolean isStatic = spec.cloud().provider() == Provider.STATIC;
    List<ClusterSpec.Pool> pools = spec.pools();
    spec.systemPool()
        .autoscaling()
        .filter(a -> a.min() > a.max())
        .ifPresent(
            a ->
                findings.report(
                    SpecPath.of("kubernetes", "systemPool", "autoscaling"),
                    "the system pool autoscales from " + a.min() + " to fewer, " + a.max(),
                    "set autoscaling.min at most autoscaling.max"));
    for (int i = 0; i < pools.size(); i++) {
      ClusterSpec.Pool p = pools.get(i);
      SpecPath at = SpecPath.of("pools", i);
      if (!isStatic) {
        if (p.instanceType().isEmpty()) {
          findings.report(
              at,
              "pool " + p.name() + " needs an instanceType on provider " + spec.cloud().provider(),
              "add instanceType: p5.48xlarge (aws) or a3-highgpu-8g (gcp)");
        }
        p.autoscaling()
            .filter(a -> a.min() > a.max())
            .ifPresent(
                a ->
                    findings.report(
                        at.key("autoscaling"),
                        "pool "
                            + p.name()
                            + " autoscales from "
                            + a.min()
                            + " to fewer, "
                            + a.max(),
                        "set autoscaling.min at most autoscaling.max"));
        if (p.autoscaling().isPresent() && spec.cloud().provider() != Provider.GCP) {
          findings.report(
              at.key("autoscaling"),
              "pool " + p.name() + " sets autoscaling, which only GKE node pools use",
              "remove autoscaling, or set count");
        }
        if (spec.cloud().provider() == Provider.GCP) {
          table
              .gcpMachine(p.instanceType())
              .filter(m -> m.count().isEmpty())
              .ifPresent(
                  m ->
                      findings.report(
                          at.key("instanceType"),
                          "gpugen's table gives no GPU count for "
                              + p.instanceType()
                              + " (the "
                              + m.name()
                              + " family), so the node pool's guest_accelerator cannot be filled",
                          "use a machine type the table lists with its count (gpugen explain"
                              + " gcp-machine-type-unknown)"));
        }
        if (p.gpu().isPresent() || !p.hosts().isEmpty()) {
          findings.report(
              at,
              "pool " + p.name() + " sets gpu or hosts, which only static pools use",
              "remove gpu and hosts, or use cloud.provider: static");
        }
        continue;
      }
      if (p.autoscaling().isPresent()) {
        findings.report(
            at.key("autoscaling"),
            "static pool " + p.name() + " sets autoscaling, which only GKE node pools use",
            "remove autoscaling");
      }
      if (!p.instanceType().isEmpty()) {
        findings.report(
            at.key("instanceType"),
            "pool " + p.name() + " sets an instanceType, which static pools do not use",
            "remove instanceType and declare gpu: {model: h100, count: 8}");
      }
      if (p.gpu().isEmpty()) {
        findings.report(
            at,
            "static pool " + p.name() + " needs gpu: {model, count}",
            "add gpu: {model: h100, count: 8}");
      }
      if (p.hosts().isEmpty()) {
        findings.report(
            at, "static pool " + p.name() + " lists no hosts", "add hosts: [{name, address}]");
      }
    }
    if (isStatic) {
      uniqueHosts(plan, findings);
    }
  }

  /**
   * Names and addresses are unique across every pool's hosts and the control-plane hosts
   * (inventory.yml has one host per name): a name listed twice is one machine only when it is a GPU
   * host also listed as a control-plane host with the same address and vars.
   */
  private static void uniqueHosts(ClusterPlan plan, Findings findings) {
    Map<String, ClusterPlan.HostEntry> names = new HashMap<>();
    Map<String, ClusterPlan.HostEntry> addresses = new HashMap<>();
    Set<String> bothRoles = new HashSet<>();
    for (ClusterPlan.HostEntry e : plan.hostEntries()) {
      ClusterSpec.Host host = e.host();
      ClusterPlan.HostEntry first = names.putIfAbsent(host.name(), e);
      boolean sameMachine = first != null && first.sameMachine(e) && bothRoles.add(host.name());
      if (first != null && !sameMachine) {
        boolean roles = first.pool().isPresent() != e.pool().isPresent();
        findings.report(
            e.at().key("name"),
            "host name "
                + host.name()
                + " is already used by "
                + first.label()
                + (roles
                    ? " (address "
                        + first.host().address()
                        + "): inventory.yml has one host per name, so one of the two entries"
                        + " would silently replace the other"
                    : ""),
            roles
                ? "rename one of them; a GPU host that is also a control-plane host is listed in"
                    + " both places with the same address and vars"
                : "give every host its own name");
      } else if (first == null && RESERVED.contains(host.name())) {
        findings.report(
            e.at().key("name"),
            "host name " + host.name() + " is also an inventory group name",
            "rename the host (all, ungrouped and spot are group names)");
      }
      ClusterPlan.HostEntry firstAddress = addresses.putIfAbsent(host.address(), e);
      if (firstAddress != null && !sameMachine) {
        findings.report(
            e.at().key("address"),
            "host address " + host.address() + " is already used by " + firstAddress.label(),
            "give every host its own address");
      }
    }
  }
}
