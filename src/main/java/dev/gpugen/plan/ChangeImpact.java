package dev.gpugen.plan;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a change of the spec does to running nodes, judged from the values a render recorded ({@link
 * #values}, kept in the render's manifest) against the new ones.
 *
 * <p>The classes follow what the rendered Terraform does with each value on AWS, where nodes are
 * {@code aws_instance} resources with {@code ignore_changes = [ami, launch_template]}: the provider
 * replaces an instance whose market, placement group, key pair or root-volume encryption changes
 * (those arguments are {@code ForceNew}), stops and starts it for a new instance type, and modifies
 * a root volume's size, type, IOPS and throughput in place (hashicorp/terraform-provider-aws,
 * internal/service/ec2/ec2_instance.go). GKE re-creates a node pool's nodes for a new machine type,
 * spot setting or boot disk. A driver change needs the rolling {@code upgrade-driver.yml}: {@code
 * site.yml} never replaces a loaded driver.
 */
public final class ChangeImpact {
  private ChangeImpact() {}

  /** How a change reaches the running nodes, in the order they are printed. */
  public enum Kind {
    REPLACES_NODES("replaces nodes"),
    DESTROYS_NODES("destroys nodes"),
    NEW_NODES_ONLY("new nodes only"),
    DRIVER_UPGRADE("upgrade-driver.yml"),
    IN_PLACE("in place");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** The word printed before the change. */
    public String label() {
      return label;
    }
  }

  /**
   * One changed value and what it does.
   *
   * @param key the spec key, pools by name ({@code pools[h100].market})
   * @param before the recorded value, empty for a new pool
   * @param after the new value, empty for a removed pool
   * @param kind how it reaches the running nodes
   * @param why what happens and what to run
   */
  public record Change(
      String key, Optional<String> before, Optional<String> after, Kind kind, String why) {
    public Change {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(before, "before");
      Objects.requireNonNull(after, "after");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(why, "why");
    }
  }

  /** The key under which the fingerprint of every other deployed value is recorded. */
  static final String FINGERPRINT = "fingerprint";

  /**
   * The values a later render judges a change by: per pool (by name) what decides whether nodes are
   * replaced, the cluster-wide values that do the same, and the fingerprint of everything else.
   */
  public static SortedMap<String, String> values(ClusterPlan plan) {
    ClusterSpec spec = plan.spec();
    SortedMap<String, String> v = new TreeMap<>();
    v.put(FINGERPRINT, plan.fingerprint());
    v.put("cloud.image", spec.cloud().image());
    spec.cloud().sshKeyName().ifPresent(k -> v.put("cloud.sshKeyName", k));
    v.put(PLACEMENT, spec.network().placement().spelling());
    for (PoolPlan pp : plan.pools()) {
      ClusterSpec.Pool p = pp.pool();
      String at = pool(p.name());
      v.put(at + "instanceType", p.instanceType());
      v.put(at + "count", Integer.toString(p.count()));
      v.put(at + "market", p.market().spelling());
      v.put(at + "rootVolume.type", p.rootVolume().type());
      v.put(at + "rootVolume.sizeGiB", Integer.toString(p.rootVolume().sizeGiB()));
      p.rootVolume().iops().ifPresent(i -> v.put(at + "rootVolume.iops", i.toString()));
      p.rootVolume().throughput().ifPresent(t -> v.put(at + "rootVolume.throughput", t.toString()));
      v.put(at + "rootVolume.encrypted", Boolean.toString(p.rootVolume().encrypted()));
      v.put(at + "software.os", p.software().os());
      v.put(at + "software.driver", p.software().driver());
      if (plan.aws()) {
        v.put(at + NODES, keys(pp));
        pp.placementGroup().ifPresent(g -> v.put(at + PLACEMENT_GROUP, g));
      }
    }
    plan.eksAddonVersions().forEach((addon, version) -> v.put(ADDONS + addon, version));
    return v;
  }

  /** The prefix of the EKS add-on versions among the recorded values. */
  static final String ADDONS = "kubernetes.addons.";

  private static final String POD_IDENTITY_AGENT = "eks-pod-identity-agent";

  /**
   * An EKS add-on's version, from {@code before} to {@code after}. No version before: the previous
   * render (an earlier gpugen) let EKS pick its default build, which on a cluster created since may
   * be newer than this render's, so the apply would downgrade it.
   */
  private static Change addon(String key, Optional<String> before, String after) {
    String addon = key.substring(ADDONS.length());
    String running =
        "aws eks describe-addon --cluster-name NAME --addon-name "
            + addon
            + " --query addon.addonVersion";
    String why =
        before.isEmpty()
            ? "terraform apply sets the running add-on to this version; the previous render let"
                + " EKS choose, and a cluster created since may run a newer build, which this"
                + " would downgrade (vpc-cni moves one minor at a time): to keep the running one,"
                + " name it under kubernetes.addons ("
                + running
                + ")"
            : after.equals("(none)")
                ? "terraform apply deletes the EKS add-on; its pods keep running (preserve)"
                : "terraform apply updates the add-on in place (vpc-cni: one minor at a time)";
    return change(key, before, after, Kind.IN_PLACE, why);
  }

  /** The placement strategy among the recorded values. */
  static final String PLACEMENT = "network.placement";

  /**
   * The value naming an AWS pool's placement group, which the next render with the same strategy
   * keeps ({@link ClusterPlan#keepingPlacementGroups}); its change is {@link #PLACEMENT}'s.
   */
  static final String PLACEMENT_GROUP = "placementGroup";

  /** The value naming an AWS pool's node keys ("0,1,3"): what count and retire select. */
  public static final String NODES = "nodes";

  private static String keys(PoolPlan pp) {
    return String.join(",", pp.nodes().stream().map(PoolPlan.Node::key).toList());
  }

  /**
   * The node keys of each AWS pool that a render would destroy while launching others in their
   * place (a deleted retire entry moves the lowest free key), by pool: "destroys node 3, launches
   * node 2". Empty when no pool's keys both lose and gain one.
   */
  public static SortedMap<String, String> renumbered(
      SortedMap<String, String> before, ClusterPlan plan) {
    SortedMap<String, String> out = new TreeMap<>();
    if (!plan.aws()) {
      return out;
    }
    for (PoolPlan pp : plan.pools()) {
      String was = before.get(pool(pp.pool().renamedFrom().orElse(pp.name())) + NODES);
      if (was == null) {
        continue;
      }
      List<String> dropped = dropped(was, keys(pp));
      List<String> added = dropped(keys(pp), was);
      if (!dropped.isEmpty() && !added.isEmpty()) {
        out.put(pp.name(), keysText("destroys", dropped) + ", " + keysText("launches", added));
      }
    }
    return out;
  }

  private static List<String> dropped(String before, String after) {
    Set<String> now = new HashSet<>(Arrays.asList(after.split(",")));
    return Arrays.stream(before.split(",")).filter(k -> !k.isEmpty() && !now.contains(k)).toList();
  }

  private static String keysText(String verb, List<String> keys) {
    return verb + (keys.size() == 1 ? " node " : " nodes ") + String.join(", ", keys);
  }

  private static String pool(String name) {
    return "pools[" + name + "].";
  }

  /**
   * The changes from {@code before} (a previous render's {@link #values}) to {@code plan}, most
   * disruptive first; empty when nothing deployed changed.
   */
  public static List<Change> between(SortedMap<String, String> before, ClusterPlan plan) {
    SortedMap<String, String> after = values(plan);
    List<Change> out = new ArrayList<>();
    // The accepted and allowed node settings are the render's record of what Terraform may launch,
    // not spec values (NodeSettings).
    before = new TreeMap<>(before);
    before
        .keySet()
        .removeIf(k -> k.startsWith(NodeSettings.ACCEPTED) || k.startsWith(NodeSettings.ALLOWED));
    if (before.isEmpty()) {
      return out; // a render from before gpugen recorded its values
    }
    // A group's name is the render's record (kept, or new with the strategy: network.placement
    // says what that does), and a render before gpugen recorded it has none to compare.
    before.keySet().removeIf(k -> k.endsWith("]." + PLACEMENT_GROUP));
    after.keySet().removeIf(k -> k.endsWith("]." + PLACEMENT_GROUP));
    TreeSet<String> poolsBefore = pools(before);
    TreeSet<String> poolsAfter = pools(after);
    for (String name : poolsBefore) {
      if (!poolsAfter.contains(name)) {
        out.add(
            new Change(
                "pools[" + name + "]",
                Optional.ofNullable(before.get(pool(name) + "count")).map(c -> c + " nodes"),
                Optional.empty(),
                plan.staticHosts() ? Kind.IN_PLACE : Kind.DESTROYS_NODES,
                plan.staticHosts()
                    ? "its hosts leave the inventory; gpugen changes nothing on them"
                    : "the pool is gone: terraform apply destroys its nodes"));
      }
    }
    boolean listed = false;
    for (Map.Entry<String, String> e : after.entrySet()) {
      String key = e.getKey();
      String was = before.get(key);
      if (key.equals(FINGERPRINT) || Objects.equals(was, e.getValue())) {
        continue;
      }
      Optional<String> poolName = poolOf(key);
      if (poolName.isPresent() && !poolsBefore.contains(poolName.get())) {
        if (key.endsWith("].count")) {
          out.add(
              new Change(
                  "pools[" + poolName.get() + "]",
                  Optional.empty(),
                  Optional.of(e.getValue() + " nodes"),
                  Kind.IN_PLACE,
                  plan.staticHosts()
                      ? "a new pool: ansible-playbook site.yml configures its hosts"
                      : "a new pool: terraform apply creates its nodes"));
        }
        continue;
      }
      if (key.endsWith("]." + NODES)) {
        // Named only when a node goes: count covers the ones added (and a render from before
        // gpugen recorded keys has nothing to compare).
        List<String> gone = was == null ? List.of() : dropped(was, e.getValue());
        if (!gone.isEmpty()) {
          List<String> added = dropped(e.getValue(), was);
          out.add(
              change(
                  key,
                  Optional.of(was),
                  e.getValue(),
                  Kind.DESTROYS_NODES,
                  "terraform apply "
                      + keysText("destroys", gone)
                      + (added.isEmpty() ? "" : " and " + keysText("launches", added))));
          listed = true;
        }
        continue;
      }
      out.add(classify(key, Optional.ofNullable(was), e.getValue(), plan));
      listed = true;
    }
    for (Map.Entry<String, String> e : before.entrySet()) {
      // A value the new spec no longer sets (an SSH key pair removed, IOPS back to the default).
      if (!after.containsKey(e.getKey())
          && poolOf(e.getKey()).map(poolsAfter::contains).orElse(true)
          && !e.getKey().equals(FINGERPRINT)) {
        out.add(classify(e.getKey(), Optional.of(e.getValue()), "(none)", plan));
        listed = true;
      }
    }
    // The first render that pins add-ons: an earlier one installed the Pod Identity Agent at EKS's
    // default, which this render leaves out unless the spec names its version.
    if (plan.eksAddonVersions().keySet().stream().noneMatch(POD_IDENTITY_AGENT::equals)
        && !plan.eksAddonVersions().isEmpty()
        && before.keySet().stream().noneMatch(k -> k.startsWith(ADDONS))) {
      out.add(
          new Change(
              ADDONS + POD_IDENTITY_AGENT,
              Optional.of("EKS's default"),
              Optional.of("(none)"),
              Kind.IN_PLACE,
              "terraform apply deletes the add-on an earlier gpugen installed (its pods keep"
                  + " running, preserve); to keep it, name its running version under"
                  + " kubernetes.addons (aws eks describe-addon --cluster-name NAME --addon-name "
                  + POD_IDENTITY_AGENT
                  + " --query addon.addonVersion)"));
      listed = true;
    }
    String fingerprint = before.get(FINGERPRINT);
    if (!listed
        && out.isEmpty()
        && fingerprint != null
        && !fingerprint.equals(after.get(FINGERPRINT))) {
      out.add(
          new Change(
              "other settings",
              Optional.empty(),
              Optional.empty(),
              Kind.IN_PLACE,
              plan.staticHosts() || plan.gke()
                  ? "ansible-playbook site.yml applies them"
                  : "terraform apply, then ansible-playbook site.yml, applies them"));
    }
    out.sort(java.util.Comparator.comparing(Change::kind));
    return out;
  }

  private static TreeSet<String> pools(SortedMap<String, String> values) {
    TreeSet<String> names = new TreeSet<>();
    values.keySet().forEach(k -> poolOf(k).ifPresent(names::add));
    return names;
  }

  private static Optional<String> poolOf(String key) {
    if (!key.startsWith("pools[") || key.indexOf("].") < 0) {
      return Optional.empty();
    }
    return Optional.of(key.substring("pools[".length(), key.indexOf("].")));
  }

  private static Change classify(
      String key, Optional<String> before, String after, ClusterPlan plan) {
    String field = poolOf(key).map(p -> key.substring(key.indexOf("].") + 2)).orElse(key);
    String label =
        poolOf(key)
            .flatMap(
                p ->
                    plan.pools().stream()
                        .filter(pp -> pp.name().equals(p))
                        .map(PoolPlan::tfPrefix)
                        .findFirst())
            .orElse("<pool>");
    String replaceOne =
        "terraform apply -replace='aws_instance." + label + "[N]' replaces one node at a time";
    if (key.startsWith(ADDONS)) {
      return addon(key, before, after);
    }
    Provider provider = plan.provider();
    Optional<String> bf = before;
    if (field.equals("software.driver")) {
      if (provider == Provider.GCP) {
        return change(key, bf, after, Kind.IN_PLACE, "play 03 rolls the GPU Operator's driver out");
      }
      if (plan.pullMode()) {
        return change(
            key,
            bf,
            after,
            Kind.NEW_NODES_ONLY,
            "pull mode: running nodes keep the driver they booted with; " + replaceOne);
      }
      return change(
          key,
          bf,
          after,
          Kind.DRIVER_UPGRADE,
          "run ansible-playbook upgrade-driver.yml (a batch at a time: drain, new driver, reboot,"
              + " validate), not site.yml, which never replaces a loaded driver");
    }
    if (provider == Provider.STATIC) {
      return change(key, bf, after, Kind.IN_PLACE, "ansible-playbook site.yml applies it");
    }
    if (provider == Provider.GCP) {
      return switch (field) {
        case "instanceType", "market", "rootVolume.type", "rootVolume.sizeGiB" ->
            change(
                key,
                bf,
                after,
                Kind.REPLACES_NODES,
                "terraform apply has GKE re-create the pool's nodes with the new setting");
        case "count" -> count(key, bf, after, "terraform apply resizes the node pool");
        default -> change(key, bf, after, Kind.IN_PLACE, "terraform apply applies it");
      };
    }
    return switch (field) {
      case "instanceType" ->
          change(
              key,
              bf,
              after,
              Kind.REPLACES_NODES,
              "terraform apply only stops and starts each node as the new type, which keeps the"
                  + " network interfaces (EFA) it launched with; "
                  + replaceOne);
      case "market" ->
          change(
              key,
              bf,
              after,
              Kind.REPLACES_NODES,
              "EC2 cannot move a running instance between spot and on-demand: terraform apply"
                  + " replaces every node of the pool");
      case "rootVolume.encrypted" ->
          change(
              key,
              bf,
              after,
              Kind.REPLACES_NODES,
              "a volume's encryption is fixed at creation: terraform apply replaces every node of"
                  + " the pool");
      case "network.placement" ->
          change(
              key,
              bf,
              after,
              Kind.REPLACES_NODES,
              "a new placement group: terraform apply replaces every node");
      case "cloud.sshKeyName" ->
          change(
              key,
              bf,
              after,
              Kind.REPLACES_NODES,
              "an instance's key pair is fixed at launch: terraform apply replaces every node");
      case "cloud.image", "software.os" ->
          change(
              key,
              bf,
              after,
              Kind.NEW_NODES_ONLY,
              "running nodes keep their image, since the Terraform ignores a new AMI for them; new"
                  + " nodes boot the new one; "
                  + replaceOne);
      case "count" ->
          count(
              key,
              bf,
              after,
              "terraform apply adds nodes",
              "terraform apply destroys the nodes with the highest numbers");
      case "rootVolume.type", "rootVolume.sizeGiB", "rootVolume.iops", "rootVolume.throughput" ->
          change(key, bf, after, Kind.IN_PLACE, "terraform apply modifies each node's root volume");
      default -> change(key, bf, after, Kind.IN_PLACE, "terraform apply applies it");
    };
  }

  private static Change count(String key, Optional<String> before, String after, String why) {
    return change(key, before, after, Kind.IN_PLACE, why);
  }

  private static Change count(
      String key, Optional<String> before, String after, String more, String fewer) {
    boolean shrinks =
        before.isPresent()
            && before.get().matches("[0-9]{1,18}")
            && after.matches("[0-9]{1,18}")
            && Long.parseLong(after) < Long.parseLong(before.get());
    return change(
        key, before, after, shrinks ? Kind.DESTROYS_NODES : Kind.IN_PLACE, shrinks ? fewer : more);
  }

  private static Change change(
      String key, Optional<String> before, String after, Kind kind, String why) {
    return new Change(key, before, Optional.of(after), kind, why);
  }

  /** Whether some change needs {@code upgrade-driver.yml}. */
  public static boolean needsDriverUpgrade(List<Change> changes) {
    return changes.stream().anyMatch(c -> c.kind() == Kind.DRIVER_UPGRADE);
  }
}
