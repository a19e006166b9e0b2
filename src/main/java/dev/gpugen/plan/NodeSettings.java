package dev.gpugen.plan;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Market;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * What an AWS pool's nodes are launched with and cannot change without being replaced: the values
 * Terraform's {@code modules/pool} holds in {@code terraform_data.replacement}, whose change
 * replaces every node of the pool ({@code replace_triggered_by}), and which pools.tf's guard
 * compares with the settings recorded in state ({@code terraform_data.recorded_node_settings}) and
 * those {@code gpugen render --allow-replace} accepted ({@code accepted_node_settings}, {@link
 * #allowed}).
 *
 * <p>Each is either {@code ForceNew} on {@code aws_instance} (key_name, placement_group, the
 * market's instance_market_options, the root volume's encryption and KMS key, the launch template's
 * id, which a new name prefix replaces: hashicorp/terraform-provider-aws,
 * internal/service/ec2/ec2_instance.go) or reaches a running node only through a new instance: the
 * instance type (EC2 would stop and start the node, keeping the network interfaces it launched
 * with), the network interfaces and subnet of the launch template, the image (a new AMI, or EKS's
 * node image for another Kubernetes minor), the Capacity Reservation. The names match the variables
 * pools.tf builds the same object from, so Terraform compares like with like; values are the
 * spec's, never ids AWS computes, so the comparison is known when Terraform plans.
 */
public final class NodeSettings {
  private NodeSettings() {}

  /** The settings of every AWS pool, by pool name; empty on other providers. */
  public static SortedMap<String, SortedMap<String, Object>> of(ClusterPlan plan) {
    SortedMap<String, SortedMap<String, Object>> out = new TreeMap<>();
    if (!plan.aws()) {
      return out;
    }
    ClusterSpec spec = plan.spec();
    ClusterSpec.Network net = spec.network();
    boolean eks = spec.kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent();
    String subnet =
        net.subnetId()
            .orElse(spec.cloud().availabilityZone().orElse("") + "/" + net.subnetCidr().orElse(""));
    // What every pool's nodes share: the image, the key pair, the subnet and the KMS key.
    SortedMap<String, Object> shared = new TreeMap<>();
    shared.put("image", spec.cloud().image());
    shared.put(
        "kubernetes_version",
        eks ? spec.kubernetes().map(ClusterSpec.Kubernetes::version).orElse(null) : null);
    shared.put("ssh_key_name", spec.cloud().sshKeyName().orElse(null));
    shared.put("subnet", subnet);
    // terraform.tfvars.json never sets kms_key_id (a user's own input): a key set later is a
    // change from the accepted null.
    shared.put("kms_key_id", null);
    for (PoolPlan pp : plan.pools()) {
      ClusterSpec.Pool p = pp.pool();
      SortedMap<String, Object> s = new TreeMap<>(shared);
      s.put("instance_type", p.instanceType());
      s.put("market", p.market().spelling());
      s.put("capacity_reservation_id", p.capacityReservationId().orElse(null));
      s.put("network_interfaces", interfaces(pp));
      s.put("placement_group", pp.placementGroup().orElse(null));
      s.put("launch_template_name_prefix", pp.launchTemplateNamePrefix());
      s.put("root_volume_encrypted", p.rootVolume().encrypted());
      out.put(pp.name(), s);
    }
    // EKS's system pool is one more entry of var.pools, its nodes replaced and guarded alike.
    plan.systemPool()
        .ifPresent(
            sp -> {
              SortedMap<String, Object> s = new TreeMap<>(shared);
              s.put("instance_type", sp.instanceType());
              s.put("market", Market.ON_DEMAND.spelling());
              s.put("capacity_reservation_id", null);
              s.put("network_interfaces", systemInterfaces());
              s.put("placement_group", null);
              s.put("launch_template_name_prefix", systemLaunchTemplateNamePrefix(plan, sp));
              s.put("root_volume_encrypted", true);
              out.put(sp.name(), s);
            });
    return out;
  }

  /** The system pool's launch template name prefix, after the GPU pools' pattern. */
  public static String systemLaunchTemplateNamePrefix(ClusterPlan plan, SystemPool sp) {
    return plan.qualifiedName() + "-" + sp.name() + "-";
  }

  /** The system pool's one network interface: ENA on card 0, EC2's default. */
  public static List<Map<String, Object>> systemInterfaces() {
    Map<String, Object> nic = new LinkedHashMap<>();
    nic.put("interface_type", null);
    nic.put("network_card_index", 0);
    return List.of(nic);
  }

  /** The manifest value holding the settings a pool's nodes were last accepted with. */
  static String acceptedKey(String pool) {
    return ACCEPTED + "pools[" + pool + "]";
  }

  /** The start of every accepted-settings key among a manifest's values ({@link #record}). */
  public static final String ACCEPTED = "accepted.";

  /**
   * The settings the render accepts for each pool's nodes: the current ones with {@code allow}
   * (gpugen render --allow-replace), for a pool that is new, and for a render whose previous one
   * recorded none (a first render, or one from before gpugen recorded them); otherwise the previous
   * render's accepted settings (a renamed pool's under its previous name). A pool whose current
   * settings differ from the accepted ones is refused by Terraform's precondition: its nodes would
   * all be replaced.
   *
   * @param previous the previous render's manifest values, empty for none
   */
  public static SortedMap<String, SortedMap<String, Object>> accepted(
      SortedMap<String, String> previous, ClusterPlan plan, boolean allow) {
    SortedMap<String, SortedMap<String, Object>> current = of(plan);
    if (allow) {
      return current;
    }
    SortedMap<String, SortedMap<String, Object>> out = new TreeMap<>();
    current.forEach(
        (pool, now) -> {
          String was = previousValue(previous, plan, pool, NodeSettings::acceptedKey);
          out.put(pool, was == null ? now : parse(was, now).orElse(now));
        });
    return out;
  }

  /**
   * The value {@code key} names for {@code pool} among the previous render's manifest values, or
   * for a renamed pool under its previous name; null for none.
   */
  private static String previousValue(
      SortedMap<String, String> previous,
      ClusterPlan plan,
      String pool,
      UnaryOperator<String> key) {
    String was = previous.get(key.apply(pool));
    if (was != null) {
      return was;
    }
    return plan.pools().stream()
        .filter(pp -> pp.name().equals(pool))
        .flatMap(pp -> pp.pool().renamedFrom().stream())
        .findFirst()
        .map(old -> previous.get(key.apply(old)))
        .orElse(null);
  }

  /**
   * The Terraform resource that records in state the settings a pool's nodes were accepted with.
   */
  public static final String RECORD = "terraform_data.recorded_node_settings";

  /**
   * The address of every pool's settings record in state ({@link #RECORD}), for {@code terraform
   * apply -replace}: replacing it re-records the pool's current settings, nothing else.
   */
  public static List<String> recordAddresses(ClusterPlan plan) {
    return of(plan).keySet().stream().map(p -> RECORD + "[\"" + p + "\"]").toList();
  }

  /**
   * The records of the pools whose current settings {@code allowed} holds (an --allow-replace, now
   * or into the folder before): an apply replaces their nodes either way, and replacing the record
   * in the same apply makes the state record what it launched, so a later render into a fresh
   * folder compares with those, and putting the spec back is refused. A pool whose settings changed
   * again since is left out: replacing its record would leave the guard nothing to compare with at
   * plan time.
   */
  public static List<String> recordAddresses(
      ClusterPlan plan, SortedMap<String, SortedMap<String, Object>> allowed) {
    SortedMap<String, List<String>> changedSince = refused(allowed, plan);
    return of(plan).keySet().stream()
        .filter(p -> allowed.containsKey(p) && !changedSince.containsKey(p))
        .map(p -> RECORD + "[\"" + p + "\"]")
        .toList();
  }

  /** The manifest value holding the settings --allow-replace last accepted for a pool's nodes. */
  static String allowedKey(String pool) {
    return ALLOWED + "pools[" + pool + "]";
  }

  /** The start of every allowed-settings key among a manifest's values ({@link #recordAllowed}). */
  public static final String ALLOWED = "allowed.";

  /**
   * The settings Terraform accepts for each pool's nodes beside those its state records ({@code
   * accepted_node_settings}): the current ones with {@code allow} (gpugen render --allow-replace),
   * else those an earlier --allow-replace accepted into the same folder (a renamed pool's under its
   * previous name). A pool no --allow-replace accepted is left out: Terraform then compares with
   * its state alone, so a render into a fresh folder (another machine, CI) cannot accept a change.
   *
   * @param previous the previous render's manifest values, empty for none
   */
  public static SortedMap<String, SortedMap<String, Object>> allowed(
      SortedMap<String, String> previous, ClusterPlan plan, boolean allow) {
    SortedMap<String, SortedMap<String, Object>> current = of(plan);
    if (allow) {
      return current;
    }
    SortedMap<String, SortedMap<String, Object>> out = new TreeMap<>();
    current.forEach(
        (pool, now) -> {
          String was = previousValue(previous, plan, pool, NodeSettings::allowedKey);
          if (was != null) {
            // A garbled record (hand edits) accepts nothing: Terraform compares with its state.
            parse(was, now).ifPresent(m -> out.put(pool, m));
          }
        });
    return out;
  }

  /** The manifest values recording {@code allowed}: one JSON object per pool. */
  public static SortedMap<String, String> recordAllowed(
      SortedMap<String, SortedMap<String, Object>> allowed) {
    SortedMap<String, String> out = new TreeMap<>();
    allowed.forEach((pool, s) -> out.put(allowedKey(pool), dev.gpugen.json.Json.write(s)));
    return out;
  }

  /** The manifest values recording {@code accepted}: one JSON object per pool. */
  public static SortedMap<String, String> record(
      SortedMap<String, SortedMap<String, Object>> accepted) {
    SortedMap<String, String> out = new TreeMap<>();
    accepted.forEach((pool, s) -> out.put(acceptedKey(pool), dev.gpugen.json.Json.write(s)));
    return out;
  }

  /**
   * The pools whose nodes the change from {@code accepted} to the plan's settings would replace,
   * each with the settings that differ.
   */
  public static SortedMap<String, List<String>> refused(
      SortedMap<String, SortedMap<String, Object>> accepted, ClusterPlan plan) {
    SortedMap<String, List<String>> out = new TreeMap<>();
    of(plan)
        .forEach(
            (pool, now) -> {
              SortedMap<String, Object> was = accepted.get(pool);
              if (was == null) {
                return;
              }
              List<String> changed = new ArrayList<>();
              now.forEach(
                  (k, v) -> {
                    if (!dev.gpugen.json.Json.write(v)
                        .equals(dev.gpugen.json.Json.write(was.get(k)))) {
                      changed.add(k);
                    }
                  });
              if (!changed.isEmpty()) {
                out.put(pool, changed);
              }
            });
    return out;
  }

  /**
   * A recorded settings object; none for one the manifest garbled (hand edits): the manifest is
   * gpugen's record, and Terraform's state is what the nodes hold.
   */
  @SuppressWarnings("unchecked")
  private static java.util.Optional<SortedMap<String, Object>> parse(
      String json, SortedMap<String, Object> current) {
    try {
      Object v = dev.gpugen.json.Json.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      if (v instanceof Map<?, ?> m && m.keySet().equals(current.keySet())) {
        return java.util.Optional.of(new TreeMap<>((Map<String, Object>) m));
      }
    } catch (java.io.IOException e) {
      // fall through
    }
    return java.util.Optional.empty();
  }

  /**
   * One entry per network card, as the pools variable writes them: the plan's "interface" is EC2's
   * default, ENA, so interface_type is left null.
   */
  public static List<Map<String, Object>> interfaces(PoolPlan pp) {
    List<Map<String, Object>> nics = new ArrayList<>();
    for (AwsInstanceType.NetworkInterface n : pp.networkInterfaces()) {
      Map<String, Object> nic = new LinkedHashMap<>();
      nic.put("interface_type", n.type().equals("interface") ? null : n.type());
      nic.put("network_card_index", n.card());
      nics.add(nic);
    }
    return nics;
  }
}
