package dev.gpugen.inventory;

import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Turns the instances EC2 reported into the inventory: a pure function of the settings and the
 * instances, so the same fleet always gives the same bytes.
 *
 * <p>Everything read from EC2 is hostile data. A value that Jinja2 would template (it contains
 * {@code {{}, {@code {%} or {@code {#}) never reaches the output: it is dropped with a warning.
 * Instances that are not this cluster's (or environment's), or not in a configured state, are
 * dropped again here even though the server-side filters already excluded them.
 */
public final class InventoryBuilder {
  /** Every host of the cluster; the seed playbooks run on {@code hosts: gpu_nodes}. */
  public static final String ALL_NODES = "gpu_nodes";

  public static final String SPOT = "spot";
  public static final String ON_DEMAND = "on_demand";

  private static final Pattern HOSTNAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
  private static final Pattern NOT_GROUP_CHAR = Pattern.compile("[^A-Za-z0-9_]");

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
    List<HostFacts> sorted = new ArrayList<>(instances);
    sorted.sort(Comparator.comparing(HostFacts::instanceId).thenComparing(HostFacts::region));
    for (HostFacts host : sorted) {
      if (!belongs(config, host)) {
        foreign++;
      } else if (seen.add(host.instanceId())) {
        hosts.add(host);
      }
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
      groups.add(ALL_NODES);
      c.pool.ifPresent(p -> groups.add(group("pool_", p)));
      c.availabilityZone.ifPresent(az -> groups.add(group("az_", az)));
      groups.add(c.spot ? SPOT : ON_DEMAND);
      c.instanceType.ifPresent(t -> groups.add(group("type_", t)));
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
    return new Result(new Inventory(groups, hostvars), warnings, foreign);
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
   * The Name tag when it is a plain host name, unique among the hosts, and not also a group name or
   * another host's id; else the instance id.
   */
  private static Map<String, String> hostnames(
      InventoryConfig config, Map<String, Clean> hosts, Set<String> groupNames) {
    Map<String, String> names = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    if (config.hostname() == HostnamePreference.NAME_TAG) {
      for (Clean c : hosts.values()) {
        c.name
            .filter(n -> HOSTNAME.matcher(n).matches())
            .ifPresent(n -> counts.merge(n, 1, Integer::sum));
      }
    }
    for (Map.Entry<String, Clean> entry : hosts.entrySet()) {
      String id = entry.getKey();
      Optional<String> name =
          entry
              .getValue()
              .name
              .filter(n -> counts.getOrDefault(n, 0) == 1)
              .filter(n -> !groupNames.contains(n))
              .filter(n -> n.equals(id) || !hosts.containsKey(n));
      names.put(id, name.orElse(id));
    }
    return names;
  }

  /** {@code prefix + value} with every character Ansible would warn about replaced by {@code _}. */
  public static String group(String prefix, String value) {
    return prefix + NOT_GROUP_CHAR.matcher(value).replaceAll("_");
  }

  /** True when Jinja2 would treat {@code value} as a template. */
  static boolean templatable(String value) {
    return value.contains("{{") || value.contains("{%") || value.contains("{#");
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
    final List<String> warnings;

    Clean(HostFacts host, InventoryConfig config, List<String> warnings) {
      this.host = host;
      this.warnings = warnings;
      this.name = safe("tag Name", host.tag(GpugenTags.NAME)).filter(s -> !s.isEmpty());
      this.pool =
          safe("tag " + GpugenTags.POOL, host.tag(GpugenTags.POOL)).filter(s -> !s.isEmpty());
      this.availabilityZone = safe("availability zone", host.availabilityZone());
      this.instanceType = safe("instance type", Optional.of(host.instanceType()));
      this.lifecycle = safe("instance lifecycle", host.lifecycle());
      this.spot = host.lifecycle().filter("spot"::equals).isPresent();
      this.privateIp = safe("private IP", host.privateIp());
      this.publicIp = safe("public IP", host.publicIp());
      this.privateDns = safe("private DNS name", host.privateDns());
    }

    private Optional<String> safe(String what, Optional<String> value) {
      if (value.isPresent() && templatable(value.get())) {
        warnings.add(
            "dropped the "
                + what
                + " of "
                + host.instanceId()
                + ": it contains a Jinja2 delimiter ({{, {% or {#)");
        return Optional.empty();
      }
      return value;
    }

    SortedMap<String, String> vars(InventoryConfig config) {
      SortedMap<String, String> vars = new TreeMap<>();
      ansibleHost(config.ansibleHost()).ifPresent(a -> vars.put("ansible_host", a));
      vars.put("gpugen_cluster", config.cluster());
      config.environment().ifPresent(e -> vars.put("gpugen_environment", e));
      vars.put("gpugen_instance_id", host.instanceId());
      vars.put("gpugen_region", host.region());
      vars.put("gpugen_state", host.state());
      instanceType.ifPresent(t -> vars.put("gpugen_instance_type", t));
      availabilityZone.ifPresent(az -> vars.put("gpugen_az", az));
      vars.put("gpugen_lifecycle", lifecycle.orElse("on-demand"));
      name.ifPresent(n -> vars.put("gpugen_name", n));
      privateIp.ifPresent(ip -> vars.put("gpugen_private_ip", ip));
      publicIp.ifPresent(ip -> vars.put("gpugen_public_ip", ip));
      privateDns.ifPresent(dns -> vars.put("gpugen_private_dns", dns));
      host.launchTime()
          .ifPresent(t -> vars.put("gpugen_launch_time", DateTimeFormatter.ISO_INSTANT.format(t)));
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
