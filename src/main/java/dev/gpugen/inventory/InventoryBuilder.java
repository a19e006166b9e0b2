package dev.gpugen.inventory;

import dev.gpugen.spec.HostAddress;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Turns the instances EC2 reported into the inventory: a pure function of the settings and the
 * instances, so the same fleet always gives the same bytes.
 *
 * <p>Everything read from EC2 is hostile data. Every field is checked against its format (an
 * instance id is {@code i-} and hex, addresses are IPv4 addresses, DNS names are DNS names, ...) and
 * a value that does not match is dropped with a warning; an instance whose id is not one is dropped
 * whole. A tag value that Jinja2 would template (it contains {@code {{}, {@code {%} or {@code {#})
 * or that carries control characters is dropped the same way. Instances that are not this
 * cluster's (or environment's), or not in a configured state, are dropped again here even though
 * the server-side filters already excluded them.
 */
public final class InventoryBuilder {
  /** Every host of the cluster; the seed playbooks run on {@code hosts: gpu_nodes}. */
  public static final String ALL_NODES = "gpu_nodes";

  /**
   * The kubeadm control-plane instances (tag gpugen:role = control-plane): play 02b's group; they
   * are in no GPU group (gpu_nodes, pool_*), so the NVIDIA plays never touch them.
   */
  public static final String CONTROL_PLANE = "kube_control_plane";

  public static final String SPOT = "spot";
  public static final String ON_DEMAND = "on_demand";

  /** Warnings printed one by one; beyond this many, one line counts the rest. */
  static final int MAX_WARNINGS = 20;

  private static final Pattern HOSTNAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
  private static final Pattern NOT_GROUP_CHAR = Pattern.compile("[^A-Za-z0-9_]");

  // The formats EC2 documents for each field (EC2 API reference, Instance data type).
  static final Pattern INSTANCE_ID = Pattern.compile("i-[0-9a-f]{8}(?:[0-9a-f]{9})?");
  static final Pattern IPV4 =
      Pattern.compile(
          "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
              + "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
  static final Pattern DNS_NAME =
      Pattern.compile(
          "(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
              + "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");
  static final Pattern ZONE = Pattern.compile("[a-z]{2}(?:-[a-z0-9]+){2,5}");
  static final Pattern INSTANCE_TYPE = Pattern.compile("[a-z0-9-]{1,32}\\.[a-z0-9-]{1,32}");
  // An FSx for Lustre mount name: "fsx" for SCRATCH_1, else a short generated name (FSx API
  // reference, LustreFileSystemConfiguration.MountName); never anything fstab would split.
  static final Pattern LUSTRE_MOUNT_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  static final List<String> LIFECYCLES = List.of("spot", "scheduled", "capacity-block");
  static final int MAX_TAG_VALUE = 256;
  // HOST:PORT with a DNS name and a port 1-65535 (an internal load balancer's name).
  static final Pattern KUBE_ENDPOINT =
      Pattern.compile(
          DNS_NAME.pattern()
              + ":(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}"
              + "|[1-9][0-9]{0,3})");

  /**
   * Names no host may have: Ansible's implicit localhost (every {@code delegate_to: localhost} task
   * would run on that instance instead) and its two built-in groups.
   */
  static final Set<String> RESERVED_NAMES = Set.of("localhost", "all", "ungrouped");

  /**
   * Groups that gpugen's plays, group_vars and inventories name (02b runs kubeadm on
   * kube_control_plane, the NVIDIA plays run on gpu_nodes, group_vars/pool_NAME.yml sets a pool's
   * driver), and Ansible's own: no keyed group may be, or become, one of them.
   */
  static final Set<String> OWN_GROUPS =
      Set.of(
          ALL_NODES,
          CONTROL_PLANE,
          SPOT,
          ON_DEMAND,
          "gke_cluster",
          "gke_nodepools",
          "all",
          "ungrouped");

  /** Families of gpugen's groups, and the kube_/gke_/gpu_/gpugen_ names kept for its plays. */
  static final List<String> OWN_GROUP_PREFIXES =
      List.of("pool_", "az_", "type_", "kube_", "gke_", "gpu_", "gpugen_");

  /**
   * The group of gpugen's own that a keyed group {@code prefix_<value>} could be, for some tag
   * value ({@code kube} and the value {@code control-plane} give kube_control_plane), or empty.
   * Compared without case, so that no group differs from one of gpugen's only by case.
   */
  public static Optional<String> ownGroupFor(String prefix) {
    String start = (prefix + "_").toLowerCase(Locale.ROOT);
    for (String g : new java.util.TreeSet<>(OWN_GROUPS)) {
      if (g.startsWith(start) && g.length() > start.length()) {
        return Optional.of(g);
      }
    }
    for (String p : OWN_GROUP_PREFIXES) {
      if (start.startsWith(p) || p.startsWith(start)) {
        return Optional.of(p + "*");
      }
    }
    return Optional.empty();
  }

  /** The inventory and the warnings to print about values that were dropped. */
  public record Result(Inventory inventory, List<String> warnings, int foreignDropped) {
    public Result {
      warnings = List.copyOf(warnings);
    }
  }

  private InventoryBuilder() {}

  /** Builds the inventory of {@code instances} under {@code config}. */
  public static Result build(InventoryConfig config, List<HostFacts> instances) {
    List<String> warnings = new ArrayList<>();
    List<HostFacts> hosts = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    int foreign = 0;
    int badIds = 0;
    List<HostFacts> sorted = new ArrayList<>(instances);
    sorted.sort(Comparator.comparing(HostFacts::instanceId).thenComparing(HostFacts::region));
    for (HostFacts host : sorted) {
      if (!INSTANCE_ID.matcher(host.instanceId()).matches()) {
        if (badIds++ == 0) {
          warnings.add(
              "dropped an instance whose id "
                  + show(host.instanceId())
                  + " is not an EC2 instance id (i- and 8 or 17 hex digits)");
        }
      } else if (!belongs(config, host)) {
        foreign++;
      } else if (seen.add(host.instanceId())) {
        hosts.add(host);
      }
    }
    if (badIds > 1) {
      warnings.add("dropped " + badIds + " instances in all whose ids are not EC2 instance ids");
    }

    // Per host: the clean values, then the groups (needed before names, since a host may not be
    // called like a group).
    Map<String, Clean> clean = new LinkedHashMap<>();
    TreeMap<String, TreeSet<String>> groupsById = new TreeMap<>();
    Map<String, List<String>> hostGroups = new HashMap<>();
    groupsById.put(ALL_NODES, new TreeSet<>());
    for (String pool : config.pools().keySet()) {
      groupsById.put(group("pool_", pool), new TreeSet<>());
    }
    for (HostFacts host : hosts) {
      Clean c = new Clean(host, config, warnings);
      clean.put(host.instanceId(), c);
      List<String> groups = new ArrayList<>();
      if (c.controlPlane) {
        groups.add(CONTROL_PLANE);
      } else {
        groups.add(ALL_NODES);
        c.pool.ifPresent(p -> groups.add(group("pool_", p)));
      }
      c.availabilityZone.ifPresent(az -> groups.add(group("az_", az)));
      groups.add(c.spot ? SPOT : ON_DEMAND);
      c.instanceType.ifPresent(t -> groups.add(group("type_", t)));
      for (KeyedGroup keyed : config.keyedGroups()) {
        c.tag(keyed.tag())
            .filter(v -> !v.isEmpty())
            .ifPresent(v -> groups.add(group(keyed.prefix() + "_", v)));
      }
      hostGroups.put(host.instanceId(), groups);
      for (String g : groups) {
        groupsById.computeIfAbsent(g, k -> new TreeSet<>());
      }
    }

    Map<String, String> names = hostnames(config, clean, groupsById.keySet());

    SortedMap<String, List<String>> groups = new TreeMap<>();
    for (HostFacts host : hosts) {
      String name = names.get(host.instanceId());
      for (String g : hostGroups.get(host.instanceId())) {
        groupsById.get(g).add(name);
      }
    }
    groupsById.forEach((g, members) -> groups.put(g, List.copyOf(members)));

    SortedMap<String, SortedMap<String, String>> hostvars = new TreeMap<>();
    for (HostFacts host : hosts) {
      hostvars.put(names.get(host.instanceId()), clean.get(host.instanceId()).vars(config));
    }
    return new Result(new Inventory(groups, hostvars), bounded(warnings), foreign);
  }

  private static List<String> bounded(List<String> warnings) {
    if (warnings.size() <= MAX_WARNINGS) {
      return warnings;
    }
    List<String> first = new ArrayList<>(warnings.subList(0, MAX_WARNINGS));
    first.add("... and " + (warnings.size() - MAX_WARNINGS) + " more values dropped alike");
    return first;
  }

  /** This cluster, this environment, a configured state, tagged as gpugen's. */
  static boolean belongs(InventoryConfig config, HostFacts host) {
    return host.tag(GpugenTags.MANAGED_BY).filter(GpugenTags.MANAGED_BY_VALUE::equals).isPresent()
        && host.tag(GpugenTags.CLUSTER).filter(config.cluster()::equals).isPresent()
        && config
            .environment()
            .map(e -> host.tag(GpugenTags.ENVIRONMENT).filter(e::equals).isPresent())
            .orElse(true)
        && config.states().contains(host.state());
  }

  /**
   * Each host's name: the first entry of {@code hostnames} whose value is a plain host name, unique
   * among the hosts for that entry, not a reserved name, not a group name, and not another host's
   * id or name; else the instance id. Hosts are named in instance-id order, so the result does not
   * depend on the order EC2 listed them in.
   */
  private static Map<String, String> hostnames(
      InventoryConfig config, Map<String, Clean> hosts, Set<String> groupNames) {
    Map<HostnameSource, Map<String, Integer>> counts = new HashMap<>();
    for (HostnameSource source : config.hostnames()) {
      Map<String, Integer> count = new HashMap<>();
      for (Clean c : hosts.values()) {
        c.hostname(source).ifPresent(n -> count.merge(n, 1, Integer::sum));
      }
      counts.put(source, count);
    }
    Set<String> taken = new HashSet<>(hosts.keySet());
    Map<String, String> names = new HashMap<>();
    for (Map.Entry<String, Clean> entry : hosts.entrySet()) {
      String id = entry.getKey();
      String name = id;
      for (HostnameSource source : config.hostnames()) {
        Optional<String> candidate =
            entry
                .getValue()
                .hostname(source)
                .filter(n -> counts.get(source).getOrDefault(n, 0) == 1)
                .filter(n -> !groupNames.contains(n))
                .filter(n -> n.equals(id) || !taken.contains(n));
        if (candidate.isPresent()) {
          name = candidate.get();
          break;
        }
      }
      taken.add(name);
      names.put(id, name);
    }
    return names;
  }

  /**
   * A plain host name that is not one Ansible reserves (localhost, all, ...) and that Ansible,
   * connecting to the name where a host has no {@code ansible_host}, would reach as another
   * machine: not a loopback or other special address, not a number resolvers read as one ({@code
   * 127.1}, {@code 0x7f000001}), not a stock /etc/hosts loopback name ({@link HostAddress}).
   */
  static boolean usableHostname(String name) {
    if (!HOSTNAME.matcher(name).matches()) {
      return false;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return !RESERVED_NAMES.contains(lower) && HostAddress.problem(lower).isEmpty();
  }

  /** {@code prefix + value} with every character Ansible would warn about replaced by {@code _}. */
  public static String group(String prefix, String value) {
    return prefix + NOT_GROUP_CHAR.matcher(value).replaceAll("_");
  }

  /** True when Jinja2 would treat {@code value} as a template. */
  static boolean templatable(String value) {
    return value.contains("{{") || value.contains("{%") || value.contains("{#");
  }

  /** A hostile value as a warning may show it: short, printable, quoted. */
  static String show(String value) {
    StringBuilder b = new StringBuilder("\"");
    value
        .codePoints()
        .limit(40)
        .forEach(c -> b.appendCodePoint(c < 0x20 || c == 0x7f || c == '"' ? '?' : c));
    if (value.codePointCount(0, value.length()) > 40) {
      b.append("...");
    }
    return b.append('"').toString();
  }

  /** One host's values after the hostile ones were dropped. */
  private static final class Clean {
    final HostFacts host;
    final Optional<String> name;
    final Optional<String> pool;
    final Optional<String> availabilityZone;
    final Optional<String> instanceType;
    final Optional<String> lifecycle;
    final boolean spot;
    final Optional<String> privateIp;
    final Optional<String> publicIp;
    final Optional<String> privateDns;
    final Optional<String> state;
    final Optional<String> lustreDnsName;
    final Optional<String> lustreMountName;
    final boolean controlPlane;
    final Optional<String> kubeEndpoint;
    final List<String> warnings;

    Clean(HostFacts host, InventoryConfig config, List<String> warnings) {
      this.host = host;
      this.warnings = warnings;
      this.name = tag(GpugenTags.NAME).filter(s -> !s.isEmpty());
      this.pool = tag(GpugenTags.POOL).filter(s -> !s.isEmpty());
      this.availabilityZone = format("availability zone", host.availabilityZone(), ZONE);
      this.instanceType = format("instance type", Optional.of(host.instanceType()), INSTANCE_TYPE);
      this.lifecycle =
          check("instance lifecycle", host.lifecycle(), LIFECYCLES::contains, "a lifecycle");
      this.spot = lifecycle.filter("spot"::equals).isPresent();
      this.privateIp = address("private IP", host.privateIp(), IPV4);
      this.publicIp = address("public IP", host.publicIp(), IPV4);
      this.privateDns = address("private DNS name", host.privateDns(), DNS_NAME);
      this.lustreDnsName =
          format("tag " + GpugenTags.LUSTRE_DNS_NAME, tag(GpugenTags.LUSTRE_DNS_NAME), DNS_NAME);
      this.lustreMountName =
          format(
              "tag " + GpugenTags.LUSTRE_MOUNT_NAME,
              tag(GpugenTags.LUSTRE_MOUNT_NAME),
              LUSTRE_MOUNT_NAME);
      this.controlPlane =
          check(
                  "tag " + GpugenTags.ROLE,
                  tag(GpugenTags.ROLE),
                  GpugenTags.ROLE_CONTROL_PLANE::equals,
                  GpugenTags.ROLE_CONTROL_PLANE)
              .isPresent();
      this.kubeEndpoint =
          controlPlane
              ? format(
                  "tag " + GpugenTags.KUBE_ENDPOINT, tag(GpugenTags.KUBE_ENDPOINT), KUBE_ENDPOINT)
              : Optional.empty();
      // belongs() already required a configured state, so this holds; checked all the same.
      this.state =
          check(
              "state",
              Optional.of(host.state()),
              InventoryConfig.EC2_STATES::contains,
              "an EC2 state");
    }

    /** The value of tag {@code key} unless it is hostile (Jinja2, control characters, long). */
    Optional<String> tag(String key) {
      Optional<String> value = host.tag(key);
      if (value.isEmpty()) {
        return value;
      }
      String v = value.get();
      if (templatable(v)) {
        warn("tag " + key, "it contains a Jinja2 delimiter ({{, {% or {#)");
        return Optional.empty();
      }
      if (v.length() > MAX_TAG_VALUE || v.chars().anyMatch(Character::isISOControl)) {
        warn("tag " + key, "it is longer than 256 characters or has control characters");
        return Optional.empty();
      }
      return value;
    }

    /** This host's usable name from {@code source}, if it has one. */
    Optional<String> hostname(HostnameSource source) {
      Optional<String> value =
          source.tagKey().isPresent()
              ? host.tag(source.tagKey().get()).filter(v -> !templatable(v))
              : source.valueOf(host, privateIp, publicIp, privateDns);
      return value.filter(InventoryBuilder::usableHostname);
    }

    /**
     * An address Ansible may connect to: of its format, and another machine (not loopback,
     * unspecified, link-local or multicast, not a number resolvers read as an IPv4 address, not a
     * stock /etc/hosts loopback name; {@link HostAddress}).
     */
    private Optional<String> address(String what, Optional<String> value, Pattern pattern) {
      Optional<String> formatted = format(what, value, pattern);
      Optional<String> why = formatted.flatMap(HostAddress::problem);
      if (why.isPresent()) {
        warn(what, show(formatted.get()) + " is " + why.get());
        return Optional.empty();
      }
      return formatted;
    }

    private Optional<String> format(String what, Optional<String> value, Pattern pattern) {
      return check(what, value, v -> pattern.matcher(v).matches(), "a valid " + what);
    }

    private Optional<String> check(
        String what, Optional<String> value, Predicate<String> valid, String expected) {
      if (value.isPresent() && !valid.test(value.get())) {
        warn(what, "it is not " + expected + ": " + show(value.get()));
        return Optional.empty();
      }
      return value;
    }

    private void warn(String what, String why) {
      warnings.add("dropped the " + what + " of " + host.instanceId() + ": " + why);
    }

    SortedMap<String, String> vars(InventoryConfig config) {
      SortedMap<String, String> vars = new TreeMap<>();
      ansibleHost(config.ansibleHost()).ifPresent(a -> vars.put("ansible_host", a));
      connectionVars(config.connection(), vars);
      vars.put("gpugen_cluster", config.cluster());
      config.environment().ifPresent(e -> vars.put("gpugen_environment", e));
      vars.put("gpugen_instance_id", host.instanceId());
      vars.put("gpugen_region", host.region());
      state.ifPresent(s -> vars.put("gpugen_state", s));
      instanceType.ifPresent(t -> vars.put("gpugen_instance_type", t));
      availabilityZone.ifPresent(az -> vars.put("gpugen_az", az));
      vars.put("gpugen_lifecycle", lifecycle.orElse("on-demand"));
      name.ifPresent(n -> vars.put("gpugen_name", n));
      privateIp.ifPresent(ip -> vars.put("gpugen_private_ip", ip));
      publicIp.ifPresent(ip -> vars.put("gpugen_public_ip", ip));
      privateDns.ifPresent(dns -> vars.put("gpugen_private_dns", dns));
      host.launchTime()
          .ifPresent(t -> vars.put("gpugen_launch_time", DateTimeFormatter.ISO_INSTANT.format(t)));
      lustreDnsName.ifPresent(d -> vars.put("gpugen_lustre_dns_name", d));
      lustreMountName.ifPresent(m -> vars.put("gpugen_lustre_mount_name", m));
      kubeEndpoint.ifPresent(e -> vars.put("gpugen_kube_endpoint", e));
      if (controlPlane) {
        // A control-plane instance is no GPU node: no pool, no expected GPU software.
        return vars;
      }
      pool.ifPresent(
          p -> {
            vars.put("gpugen_pool", p);
            PoolSoftware expected = config.pools().get(p);
            if (expected != null) {
              expect(vars, "gpugen_expected_instance_type", expected.instanceType());
              expect(vars, "gpugen_expected_driver", expected.driver());
              expect(vars, "gpugen_expected_cuda", expected.cuda());
              expect(vars, "gpugen_expected_container_toolkit", expected.containerToolkit());
            }
          });
      return vars;
    }

    /**
     * The connection variables of this host. ssm: community.aws.aws_ssm with the instance id, the
     * region it was found in and the cluster's transfer bucket from the node's tag, with
     * virtual-hosted S3 addressing (the plugin's documented fix for buckets outside us-east-1
     * answering path-style requests with a 307 redirect,
     * https://docs.ansible.com/ansible/latest/collections/community/aws/aws_ssm_connection.html).
     * ssh: the image's login user, and ProxyJump with a jump host.
     */
    private void connectionVars(NodeConnection connection, SortedMap<String, String> vars) {
      if (connection.ssm()) {
        vars.put("ansible_connection", NodeConnection.SSM_PLUGIN);
        vars.put("ansible_aws_ssm_instance_id", host.instanceId());
        vars.put("ansible_aws_ssm_region", host.region());
        vars.put("ansible_aws_ssm_s3_addressing_style", "virtual");
        // From the settings and EC2's own fields, never from a tag: S3 names are global.
        Optional<String> bucket = connection.bucketFor(host.ownerId(), host.region());
        if (bucket.isPresent()) {
          vars.put("ansible_aws_ssm_bucket_name", bucket.get());
        } else {
          warnings.add(
              host.instanceId()
                  + ": EC2 reported no account id for it, so the SSM connection has no bucket to"
                  + " move files through");
        }
      } else {
        connection.user().ifPresent(u -> vars.put("ansible_user", u));
        connection
            .proxyJump()
            .ifPresent(j -> vars.put("ansible_ssh_common_args", "-o ProxyJump=" + j));
      }
    }

    private static void expect(SortedMap<String, String> vars, String key, Optional<String> value) {
      // Settings come from the spec; InventoryConfigReader already refused templatable ones.
      value.ifPresent(v -> vars.put(key, v));
    }

    private Optional<String> ansibleHost(AnsibleHostSource source) {
      return switch (source) {
        case PRIVATE_IP -> privateIp;
        case PUBLIC_IP -> publicIp.or(() -> privateIp);
        case PRIVATE_DNS -> privateDns.or(() -> privateIp);
      };
    }
  }
}
