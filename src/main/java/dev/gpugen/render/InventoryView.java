package dev.gpugen.render;

import dev.gpugen.inventory.InventoryBuilder;
import dev.gpugen.inventory.InventoryFile;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.render.AnsibleView.Entry;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.ClusterSpec.Pool;
import dev.gpugen.spec.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The inventories: inventory.yml of static hosts, gpugen-inventory.json (the EC2 dynamic
 * inventory's settings), a pulling node's pull-inventory-POOL.yml, and the login user ansible.cfg
 * names.
 */
public final class InventoryView {
  private final ClusterPlan plan;
  private final ClusterSpec spec;

  InventoryView(ClusterPlan plan) {
    this.plan = plan;
    this.spec = plan.spec();
  }

  /**
   * gpugen-inventory.json, the settings of the dynamic inventory beside it: which cluster's
   * instances to list, and what each pool is expected to run (hosts get them as gpugen_* vars).
   * Empty (no file) for clusters that are not on EC2.
   */
  public Map<String, Object> config() {
    if (!plan.aws()) {
      return Map.of();
    }
    TreeMap<String, InventoryFile.Pool> pools = new TreeMap<>();
    for (Pool p : spec.pools()) {
      pools.put(
          p.name(),
          new InventoryFile.Pool(
              p.instanceType(),
              p.software().driver(),
              p.software().cuda(),
              p.software().containerToolkit()));
    }
    return InventoryFile.rendered(
            spec.metadata().name(),
            spec.metadata().environment(),
            spec.cloud().region().orElseThrow(),
            pools,
            spec.connection().method().spelling(),
            plan.ssmBucketPrefix(),
            spec.connection()
                .bastion()
                .filter(b -> !spec.connection().ssm())
                .map(ClusterSpec.Bastion::proxyJump),
            Optional.of(loginUser()).filter(u -> !u.isEmpty() && !spec.connection().ssm()))
        .toJson();
  }

  /** A static host as inventory.yml lists it: its name and its variables, sorted. */
  public record StaticHost(String name, List<Entry> vars) {}

  /** An inventory group and its hosts, sorted. */
  public record Group(String name, List<String> hosts) {}

  /**
   * The login user of EC2 nodes: Canonical's Ubuntu AMIs accept only {@code ubuntu}
   * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/managing-users.html, "For an Ubuntu AMI,
   * the user name is ubuntu"). Empty for static hosts and GKE (their inventories say) and for an OS
   * gpugen does not know.
   */
  public String loginUser() {
    boolean ec2 = spec.cloud().provider() == Provider.AWS;
    boolean ubuntu =
        spec.cloud().image().startsWith("ubuntu-") || spec.software().os().startsWith("ubuntu");
    return ec2 && ubuntu ? "ubuntu" : "";
  }

  /**
   * Whether the nodes are static hosts listed in inventory.yml (no cloud, no dynamic inventory).
   */
  public boolean staticHosts() {
    return plan.staticHosts();
  }

  /**
   * The hosts of inventory.yml, with the {@code gpugen_*} variables gpugen-inventory gives EC2
   * hosts where they apply to bare metal, then the spec's per-host vars. Empty unless static.
   */
  public List<StaticHost> hosts() {
    List<StaticHost> out = new ArrayList<>();
    if (!staticHosts()) {
      return out;
    }
    // A GPU host that is also a control-plane host (spec-pool-shape allows a name twice only as the
    // same machine) keeps its GPU entry and is only added to the group. The control plane: its
    // address and the spec's vars only (no GPU pool, no gpugen_* vars).
    java.util.Set<String> listed = new TreeSet<>();
    for (ClusterPlan.HostEntry e : plan.hostEntries()) {
      boolean gpu = e.pool().isPresent();
      if ((gpu || plan.kubeadm()) && listed.add(e.host().name())) {
        ClusterSpec.Host h = e.host();
        Map<String, String> vars = new TreeMap<>(h.vars());
        vars.put("ansible_host", h.address());
        vars.put("gpugen_name", h.name());
        if (gpu) {
          putPoolVars(vars, plan.pool(e.pool().get()).pool());
        }
        out.add(new StaticHost(h.name(), entries(vars)));
      }
    }
    out.sort(java.util.Comparator.comparing(StaticHost::name));
    return out;
  }

  /**
   * The groups of inventory.yml: gpu_nodes, pool_NAME per pool, and on_demand or spot, as
   * gpugen-inventory names them. Empty unless static; groups without hosts are left out.
   */
  public List<Group> groups() {
    Map<String, TreeSet<String>> groups = new TreeMap<>();
    if (!staticHosts()) {
      return List.of();
    }
    for (ClusterPlan.HostEntry e : plan.hostEntries()) {
      List<String> of =
          e.pool().isPresent()
              ? poolGroups(plan.pool(e.pool().get()).pool())
              : plan.kubeadm() ? List.of(AnsibleView.CONTROL_PLANE_GROUP) : List.of();
      for (String g : of) {
        groups.computeIfAbsent(g, k -> new TreeSet<>()).add(e.host().name());
      }
    }
    List<Group> out = new ArrayList<>();
    groups.forEach((g, hosts) -> out.add(new Group(g, List.copyOf(hosts))));
    return out;
  }

  /**
   * The variables of the one host in a pulling node's local inventory: the connection, and the
   * {@code gpugen_*} variables gpugen-inventory gives an EC2 host of the pool (those a node knows
   * before it asks EC2; the host name is {@code localhost}).
   */
  public List<Entry> pullHostVars(String poolName) {
    Pool p = plan.pool(poolName).pool();
    Map<String, String> vars = new TreeMap<>();
    vars.put("ansible_connection", "local");
    vars.put("gpugen_instance_type", p.instanceType());
    // The node has no gpugen to draw the fleet's page with; its report goes to S3 instead.
    vars.put("validation_results_page", "false");
    putPoolVars(vars, p);
    return entries(vars);
  }

  /** The {@code gpugen_*} host variables every host of pool {@code p} carries, as on EC2. */
  private void putPoolVars(Map<String, String> vars, Pool p) {
    vars.put("gpugen_cluster", spec.metadata().name());
    spec.metadata().environment().ifPresent(e -> vars.put("gpugen_environment", e));
    vars.put("gpugen_lifecycle", p.market().spelling());
    vars.put("gpugen_pool", p.name());
    vars.put("gpugen_expected_driver", p.software().driver());
    vars.put("gpugen_expected_cuda", p.software().cuda());
    vars.put("gpugen_expected_container_toolkit", p.software().containerToolkit());
  }

  /** The groups of a pulling node of the pool, as gpugen-inventory names them, sorted. */
  public List<String> pullGroups(String poolName) {
    Pool p = plan.pool(poolName).pool();
    TreeSet<String> groups = new TreeSet<>(poolGroups(p));
    groups.add(dev.gpugen.plan.GroupName.of("type_", p.instanceType()));
    return List.copyOf(groups);
  }

  /**
   * The groups gpugen-inventory puts every host of pool {@code p} in (its naming, so that push,
   * static and pull inventories agree); hosts with an instance type also get its type_ group.
   */
  private List<String> poolGroups(Pool p) {
    return List.of(
        InventoryBuilder.ALL_NODES,
        plan.pool(p.name()).group(),
        p.spot() ? InventoryBuilder.SPOT : InventoryBuilder.ON_DEMAND);
  }

  private static List<Entry> entries(Map<String, String> m) {
    List<Entry> out = new ArrayList<>();
    m.forEach((k, v) -> out.add(new Entry(k, v)));
    return out;
  }
}
