package dev.gpugen.inventory;

import dev.gpugen.plan.GroupName;
import dev.gpugen.spec.HostAddress;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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

  static final Pattern HOSTNAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");

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

  /**
   * Families of gpugen's groups, and the kube_/gke_/gpu_/gpugen_ names kept for its plays; kubeadm_
   * holds the groups play 02b makes while it runs (kubeadm_leader, kubeadm_api_answers and
   * kubeadm_api_silent: group_by in roles/kubeadm/tasks/find.yml).
   */
  static final List<String> OWN_GROUP_PREFIXES =
      List.of("pool_", "az_", "type_", "kube_", "kubeadm_", "gke_", "gpu_", "gpugen_");

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
      if (!Formats.instanceId(host.instanceId())) {
        if (badIds++ == 0) {
          warnings.add(
              "dropped an instance whose id "
                  + show(host.instanceId())
                  + " is not an EC2 instance id (i- and 8 or 17 hex digits)");
        }
      } else if (!belongs(config, host)) {
        foreign++;
      } else if (host.tag(GpugenTags.ROLE).filter(GpugenTags.ROLE_SYSTEM::equals).isPresent()) {
        // EKS's system nodes: the cluster's, joined at boot; no play configures them.
        continue;
      } else if (seen.add(host.instanceId())) {
        hosts.add(host);
      }
    }
    if (badIds > 1) {
      warnings.add("dropped " + badIds + " instances in all whose ids are not EC2 instance ids");
    }

    // Per host (in instance-id order): the clean values, then the groups (needed before names,
    // since a host may not be called like a group). Group names repeat across hosts: each
    // distinct value is sanitised once.
    Map<String, Map<String, String>> groupNames = new HashMap<>();
    Map<Pattern, Map<String, Boolean>> matched = new HashMap<>();
    List<Clean> clean = new ArrayList<>(hosts.size());
    Map<String, List<Clean>> members = new TreeMap<>();
    members.put(ALL_NODES, new ArrayList<>());
    for (String pool : config.pools().keySet()) {
      members.put(group("pool_", pool), new ArrayList<>());
    }
    for (HostFacts host : hosts) {
      Clean c = new Clean(host, config, warnings, matched);
      clean.add(c);
      List<String> groups = new ArrayList<>(6);
      if (c.controlPlane) {
        groups.add(CONTROL_PLANE);
      } else {
        groups.add(ALL_NODES);
        if (c.pool.isPresent()) {
          groups.add(group(groupNames, "pool_", c.pool.get()));
        }
      }
      if (c.availabilityZone.isPresent()) {
        groups.add(group(groupNames, "az_", c.availabilityZone.get()));
      }
      groups.add(c.spot ? SPOT : ON_DEMAND);
      if (c.instanceType.isPresent()) {
        groups.add(group(groupNames, "type_", c.instanceType.get()));
      }
      for (KeyedGroup keyed : config.keyedGroups()) {
        Optional<String> value = c.tag(keyed.tag());
        if (value.isPresent() && !value.get().isEmpty()) {
          groups.add(group(groupNames, keyed.prefix() + "_", value.get()));
        }
      }
      for (String g : groups) {
        members.computeIfAbsent(g, k -> new ArrayList<>()).add(c);
      }
    }

    hostnames(config, clean, members.keySet());
    // A tag named like one of gpugen's groups never names a host (usableHostname); said, since the
    // host is then found under another name (host_vars/, -l, known_hosts).
    for (Clean c : clean) {
      for (HostnameSource source : config.hostnames()) {
        Optional<String> value = source.tagKey().flatMap(c.host::tag);
        Optional<String> family =
            value.filter(Formats::hostname).flatMap(v -> ownGroupName(v.toLowerCase(Locale.ROOT)));
        if (family.isPresent()) {
          warnings.add(
              "named "
                  + c.host.instanceId()
                  + (c.hostname.equals(c.host.instanceId()) ? "" : " " + show(c.hostname))
                  + ", not by its tag "
                  + show(source.tagKey().get())
                  + " "
                  + show(value.get())
                  + ": that is named like gpugen's group "
                  + family.get()
                  + ", which a play's hosts: would select in its place");
        }
      }
    }

    SortedMap<String, List<String>> groups = new TreeMap<>();
    for (Map.Entry<String, List<Clean>> group : members.entrySet()) {
      String[] names = new String[group.getValue().size()];
      for (int i = 0; i < names.length; i++) {
        names[i] = group.getValue().get(i).hostname;
      }
      // Hosts come in instance-id order, which is mostly name order too: a near-linear sort.
      Arrays.sort(names);
      int n = 0;
      for (String name : names) {
        if (n == 0 || !names[n - 1].equals(name)) {
          names[n++] = name;
        }
      }
      groups.put(group.getKey(), List.of(Arrays.copyOf(names, n)));
    }

    // Variables in instance-id order, as their warnings are; then the hosts in name order.
    for (Clean c : clean) {
      c.vars = c.vars(config);
    }
    Clean[] byName = clean.toArray(new Clean[0]);
    Arrays.sort(byName, Comparator.comparing((Clean c) -> c.hostname));
    String[] names = new String[byName.length];
    Object[] vars = new Object[byName.length];
    for (int i = 0; i < byName.length; i++) {
      names[i] = byName[i].hostname;
      vars[i] = byName[i].vars;
    }
    return new Result(
        new Inventory(groups, SortedArrayMap.ofSorted(names, vars)), bounded(warnings), foreign);
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
   * Each host's name ({@code Clean.hostname}): the first entry of {@code hostnames} whose value is
   * a plain host name, unique among the hosts for that entry, not a reserved name, not a group
   * name, and not another host's id or name; else the instance id. Hosts are named in instance-id
   * order, so the result does not depend on the order EC2 listed them in.
   */
  private static void hostnames(InventoryConfig config, List<Clean> hosts, Set<String> groupNames) {
    List<HostnameSource> sources = config.hostnames();
    List<Map<String, Integer>> counts = new ArrayList<>(sources.size());
    for (int s = 0; s < sources.size(); s++) {
      Map<String, Integer> count = new HashMap<>();
      for (Clean c : hosts) {
        Optional<String> n = c.hostname(s, sources.get(s));
        if (n.isPresent()) {
          count.merge(n.get(), 1, Integer::sum);
        }
      }
      counts.add(count);
    }
    Set<String> taken = new HashSet<>();
    for (Clean c : hosts) {
      taken.add(c.host.instanceId());
    }
    for (Clean c : hosts) {
      String id = c.host.instanceId();
      String name = id;
      for (int s = 0; s < sources.size(); s++) {
        Optional<String> candidate = c.hostname(s, sources.get(s));
        if (candidate.isPresent()) {
          String n = candidate.get();
          if (counts.get(s).getOrDefault(n, 0) == 1
              && !groupNames.contains(n)
              && (n.equals(id) || !taken.contains(n))) {
            name = n;
            break;
          }
        }
      }
      taken.add(name);
      c.hostname = name;
    }
  }

  /**
   * A plain host name that is not one Ansible reserves (localhost, all, ...) and that Ansible,
   * connecting to the name where a host has no {@code ansible_host}, would reach as another
   * machine: not a loopback or other special address, not a number resolvers read as one ({@code
   * 127.1}, {@code 0x7f000001}), not a stock /etc/hosts loopback name ({@link HostAddress}).
   */
  static boolean usableHostname(String name) {
    return hostNameProblem(name).isEmpty()
        && HostAddress.problem(name.toLowerCase(Locale.ROOT)).isEmpty();
  }

  /**
   * Why {@code name} is not a plain inventory host name, or empty: one that, given to {@code
   * ansible-playbook -l}, selects that host and no other. {@code -l} takes a host pattern
   * (https://docs.ansible.com/ansible/latest/inventory_guide/intro_patterns.html): {@code all} and
   * {@code *} select every host, {@code ~} starts a regular expression, {@code :}, {@code ,},
   * {@code &} and {@code !} combine patterns, {@code ?} and {@code [...]} match, {@code @} reads a
   * file; none of these fits {@link #HOSTNAME}. A group's name selects the group, so gpugen's own
   * groups and their families are refused as well.
   */
  public static Optional<String> hostNameProblem(String name) {
    if (!Formats.hostname(name)) {
      return Optional.of(
          "not a plain host name (a letter or digit, then letters, digits, '.', '_' and '-', at"
              + " most 253): Ansible reads other characters in -l as a host pattern that may"
              + " select other hosts, or all of them");
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (RESERVED_NAMES.contains(lower)) {
      return Optional.of(
          lower.equals("localhost")
              ? "Ansible's name for the controller itself, not a node"
              : "the name of Ansible's built-in group " + lower + ", which -l selects whole");
    }
    return ownGroupName(lower)
        .map(g -> "named like gpugen's group " + g + ", which -l would select whole");
  }

  /**
   * The group of gpugen's that {@code lower} is named like (the group, or its family as {@code
   * prefix*}), if any: one that is, or may become while a play runs, a group. Where the group does
   * not exist (yet), a play's {@code hosts:} pattern matches the host of that name instead, so an
   * EC2 Name tag of kubeadm_leader could run kubeadm init on a GPU worker.
   */
  private static Optional<String> ownGroupName(String lower) {
    if (OWN_GROUPS.contains(lower)) {
      return Optional.of(lower);
    }
    return OWN_GROUP_PREFIXES.stream().filter(lower::startsWith).findFirst().map(p -> p + "*");
  }

  /** {@code prefix + value} as an Ansible group name: the render's rule ({@link GroupName}). */
  static String group(String prefix, String value) {
    return GroupName.of(prefix, value);
  }

  /** {@link #group}, each distinct prefix and value worked out once. */
  private static String group(Map<String, Map<String, String>> memo, String prefix, String value) {
    return memo.computeIfAbsent(prefix, p -> new HashMap<>())
        .computeIfAbsent(value, v -> group(prefix, v));
  }

  /**
   * {@link DateTimeFormatter#ISO_INSTANT}'s text of {@code t}: {@code YYYY-MM-DDTHH:MM:SS}, a
   * fraction of 3, 6 or 9 digits if it has one, {@code Z}; years outside 1000-9999 by the formatter
   * itself.
   */
  static String isoInstant(Instant t) {
    LocalDateTime d = LocalDateTime.ofEpochSecond(t.getEpochSecond(), 0, ZoneOffset.UTC);
    if (d.getYear() < 1000 || d.getYear() > 9999) {
      return DateTimeFormatter.ISO_INSTANT.format(t);
    }
    char[] c = new char[30];
    int n = 0;
    n = digits(c, n, d.getYear(), 4);
    c[n++] = '-';
    n = digits(c, n, d.getMonthValue(), 2);
    c[n++] = '-';
    n = digits(c, n, d.getDayOfMonth(), 2);
    c[n++] = 'T';
    n = digits(c, n, d.getHour(), 2);
    c[n++] = ':';
    n = digits(c, n, d.getMinute(), 2);
    c[n++] = ':';
    n = digits(c, n, d.getSecond(), 2);
    int nano = t.getNano();
    if (nano != 0) {
      c[n++] = '.';
      if (nano % 1_000_000 == 0) {
        n = digits(c, n, nano / 1_000_000, 3);
      } else if (nano % 1000 == 0) {
        n = digits(c, n, nano / 1000, 6);
      } else {
        n = digits(c, n, nano, 9);
      }
    }
    c[n++] = 'Z';
    return new String(c, 0, n);
  }

  private static int digits(char[] c, int at, int value, int width) {
    for (int i = width - 1; i >= 0; i--) {
      c[at + i] = (char) ('0' + value % 10);
      value /= 10;
    }
    return at + width;
  }

  /** {@code value} has a control character ({@link Character#isISOControl}). */
  private static boolean hasControl(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        return true;
      }
    }
    return false;
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

  /**
   * One host's variables, each in its slot of the sorted list of every variable the inventory sets:
   * they come out in key order without a key comparison.
   */
  private static final class Vars {
    private static final String[] KEYS =
        SortedArrayMap.checkSorted(
            new TreeSet<>(
                    List.of(
                        "ansible_host",
                        "ansible_connection",
                        "ansible_aws_ssm_instance_id",
                        "ansible_aws_ssm_region",
                        "ansible_aws_ssm_s3_addressing_style",
                        "ansible_aws_ssm_bucket_name",
                        "ansible_user",
                        "ansible_ssh_common_args",
                        "gpugen_cluster",
                        "gpugen_environment",
                        "gpugen_instance_id",
                        "gpugen_region",
                        "gpugen_state",
                        "gpugen_instance_type",
                        "gpugen_az",
                        "gpugen_lifecycle",
                        "gpugen_name",
                        "gpugen_private_ip",
                        "gpugen_public_ip",
                        "gpugen_private_dns",
                        "gpugen_launch_time",
                        "gpugen_lustre_dns_name",
                        "gpugen_lustre_mount_name",
                        "gpugen_kube_endpoint",
                        "gpugen_pool",
                        "gpugen_expected_instance_type",
                        "gpugen_expected_driver",
                        "gpugen_expected_cuda",
                        "gpugen_expected_container_toolkit"))
                .toArray(new String[0]));

    private static final Map<String, Integer> SLOTS = slots();

    private final Object[] values = new Object[KEYS.length];

    private static Map<String, Integer> slots() {
      Map<String, Integer> slots = new HashMap<>();
      for (int i = 0; i < KEYS.length; i++) {
        slots.put(KEYS[i], i);
      }
      return slots;
    }

    void put(String key, String value) {
      Integer slot = SLOTS.get(key);
      if (slot == null) {
        throw new IllegalArgumentException("no slot for host variable " + key);
      }
      values[slot] = value;
    }

    SortedMap<String, String> done() {
      return SortedArrayMap.ofSlots(KEYS, values);
    }
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
    private final Map<Pattern, Map<String, Boolean>> memo;

    /** The name {@link #hostnames} gave it. */
    String hostname;

    /** Its variables, once worked out. */
    SortedMap<String, String> vars;

    /** {@link #hostname(int, HostnameSource)} by source index, once asked. */
    private List<Optional<String>> hostnameBySource;

    Clean(
        HostFacts host,
        InventoryConfig config,
        List<String> warnings,
        Map<Pattern, Map<String, Boolean>> memo) {
      this.host = host;
      this.warnings = warnings;
      this.memo = memo;
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
      if (v.length() > MAX_TAG_VALUE || hasControl(v)) {
        warn("tag " + key, "it is longer than 256 characters or has control characters");
        return Optional.empty();
      }
      return value;
    }

    /** This host's usable name from {@code source}, the {@code index}th entry of hostnames. */
    Optional<String> hostname(int index, HostnameSource source) {
      if (hostnameBySource == null) {
        hostnameBySource = new ArrayList<>();
      }
      while (hostnameBySource.size() <= index) {
        hostnameBySource.add(null);
      }
      Optional<String> name = hostnameBySource.get(index);
      if (name == null) {
        name = hostname(source);
        hostnameBySource.set(index, name);
      }
      return name;
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
      if (value.isPresent() && !matches(pattern, value.get())) {
        warn(what, "it is not a valid " + what + ": " + show(value.get()));
        return Optional.empty();
      }
      return value;
    }

    /** {@code pattern} matches {@code value}; the per-host formats are checked by loops. */
    private boolean matches(Pattern pattern, String value) {
      if (pattern == IPV4) {
        return Formats.ipv4(value);
      }
      if (pattern == DNS_NAME) {
        return Formats.dnsName(value);
      }
      // Zones and instance types repeat across the fleet: each distinct value is matched once.
      return memo.computeIfAbsent(pattern, p -> new HashMap<>())
          .computeIfAbsent(value, v -> pattern.matcher(v).matches());
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
      Vars vars = new Vars();
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
      host.launchTime().ifPresent(t -> vars.put("gpugen_launch_time", isoInstant(t)));
      lustreDnsName.ifPresent(d -> vars.put("gpugen_lustre_dns_name", d));
      lustreMountName.ifPresent(m -> vars.put("gpugen_lustre_mount_name", m));
      kubeEndpoint.ifPresent(e -> vars.put("gpugen_kube_endpoint", e));
      if (controlPlane) {
        // A control-plane instance is no GPU node: no pool, no expected GPU software.
        return vars.done();
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
      return vars.done();
    }

    /**
     * The connection variables of this host. ssm: community.aws.aws_ssm with the instance id, the
     * region it was found in and the cluster's transfer bucket from the node's tag, with
     * virtual-hosted S3 addressing (the plugin's documented fix for buckets outside us-east-1
     * answering path-style requests with a 307 redirect,
     * https://docs.ansible.com/ansible/latest/collections/community/aws/aws_ssm_connection.html).
     * ssh: the image's login user, and ProxyJump with a jump host.
     */
    private void connectionVars(NodeConnection connection, Vars vars) {
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

    private static void expect(Vars vars, String key, Optional<String> value) {
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
