package dev.gpugen.drift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.inventory.GpugenTags;
import dev.gpugen.inventory.HostFacts;
import dev.gpugen.inventory.InventoryBuilder;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.ClusterSpec.Pool;
import dev.gpugen.spec.SafeRead;
import dev.gpugen.spec.ShellCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Compares the spec with EC2's instances (cloud level) and with the nodes' facts (node level). */
public final class Drift {
  private Drift() {}

  /** Cloud level: counts per pool, instance type, AMI (when pinned), placement group, market. */
  public static List<Finding> cloud(ClusterPlan plan, List<HostFacts> hosts) {
    ClusterSpec spec = plan.spec();
    List<Finding> out = new ArrayList<>();
    Map<String, List<HostFacts>> byPool = new TreeMap<>();
    for (HostFacts h : hosts) {
      // EKS's system nodes are the cluster's, not a pool of the spec's GPU nodes.
      if (h.tag(GpugenTags.ROLE).filter(GpugenTags.ROLE_SYSTEM::equals).isPresent()) {
        continue;
      }
      byPool.computeIfAbsent(h.tag(GpugenTags.POOL).orElse(""), k -> new ArrayList<>()).add(h);
    }
    Map<String, Pool> pools = new LinkedHashMap<>();
    spec.pools().forEach(p -> pools.put(p.name(), p));
    for (PoolPlan pp : plan.pools()) {
      Pool p = pp.pool();
      List<HostFacts> running = byPool.getOrDefault(p.name(), List.of());
      if (running.size() < p.count()) {
        out.add(
            new Finding(
                "cloud",
                p.name(),
                "",
                "missing",
                p.count() + " instances",
                running.size() + " instances (" + (p.count() - running.size()) + " missing)"));
      } else if (running.size() > p.count()) {
        out.add(
            new Finding(
                "cloud",
                p.name(),
                "",
                "extra",
                p.count() + " instances",
                running.size()
                    + " instances ("
                    + (running.size() - p.count())
                    + " extra: "
                    + String.join(" ", extra(running, running.size() - p.count()))
                    + ")"));
      }
      Optional<String> group = pp.placementGroup();
      String market = p.market().spelling();
      for (HostFacts h : running) {
        if (!h.instanceType().equals(p.instanceType())) {
          out.add(cloud(p, h, "instance-type", p.instanceType(), h.instanceType()));
        }
        if (spec.cloud().image().startsWith("ami-")
            && !h.imageId().orElse("").equals(spec.cloud().image())) {
          out.add(cloud(p, h, "ami", spec.cloud().image(), h.imageId().orElse("none")));
        }
        if (group.isPresent() && !h.placementGroup().equals(group)) {
          out.add(cloud(p, h, "placement-group", group.get(), h.placementGroup().orElse("none")));
        }
        String actualMarket = h.lifecycle().orElse("on-demand");
        if (!actualMarket.equals(market)) {
          out.add(cloud(p, h, "market", market, actualMarket));
        }
      }
      // One image and one launch-template version per pool: a node launched later from another
      // (a reclaimed Spot node re-created, a template edited since) runs beside the others in one
      // NCCL job. The version is the tag EC2 puts on an instance launched from a template
      // (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/Using_Tags.html, aws: tags).
      if (!spec.cloud().image().startsWith("ami-")) { // an ami- id is checked node by node above
        mixed(out, p, running, "image", h -> h.imageId().orElse("none"));
      }
      mixed(
          out,
          p,
          running,
          "launch-template-version",
          h -> h.tag("aws:ec2launchtemplate:version").orElse("none"));
    }
    byPool.forEach(
        (pool, running) -> {
          if (!pools.containsKey(pool)) {
            for (HostFacts h : running) {
              out.add(
                  new Finding(
                      "cloud",
                      pool,
                      h.instanceId(),
                      "unknown-pool",
                      "a pool of the spec",
                      pool.isEmpty() ? "no gpugen:pool tag" : "pool " + pool));
            }
          }
        });
    Collections.sort(out);
    return out;
  }

  /**
   * The most one host's facts file may hold: {@code ansible -m setup -a filter=ansible_local}
   * writes a few KiB.
   */
  public static final long MAX_FACTS_BYTES = 16L << 20;

  /**
   * Each node of a pool whose value differs from the value most of the pool has (ties: the lowest),
   * one finding per such node naming both.
   */
  private static void mixed(
      List<Finding> out,
      Pool p,
      List<HostFacts> running,
      String kind,
      java.util.function.Function<HostFacts, String> value) {
    java.util.SortedMap<String, Integer> counts = new java.util.TreeMap<>();
    running.forEach(h -> counts.merge(value.apply(h), 1, Integer::sum));
    if (counts.size() < 2) {
      return;
    }
    String most =
        counts.entrySet().stream()
            .max(
                java.util.Map.Entry.<String, Integer>comparingByValue()
                    .thenComparing(
                        java.util.Map.Entry.<String, Integer>comparingByKey().reversed()))
            .orElseThrow()
            .getKey();
    for (HostFacts h : running) {
      String v = value.apply(h);
      if (!v.equals(most)) {
        out.add(cloud(p, h, kind, most + " (the rest of the pool)", v));
      }
    }
  }

  private static Finding cloud(Pool p, HostFacts h, String kind, String expected, String actual) {
    return new Finding("cloud", p.name(), h.instanceId(), kind, expected, actual);
  }

  /**
   * Node level: every file in {@code dir}, as {@code ansible -m setup -a filter=ansible_local
   * --tree DIR} writes them: one per host, named after it ({@code .json} is dropped if present).
   *
   * <p>A file whose name is not a plain inventory host name ({@link
   * InventoryBuilder#hostNameProblem}) is a {@code facts-name} finding without a fix: its name
   * would be the {@code -l} host pattern of the fix commands.
   *
   * @throws IOException when the folder cannot be read or holds no file (no facts is not in sync),
   *     or {@link EnvironmentFailure} for a file that is not a regular one or more than {@link
   *     #MAX_FACTS_BYTES}
   */
  public static List<Finding> nodes(ClusterPlan plan, Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      // Folders are not facts; anything else (a pipe, a link, a device) is refused by SafeRead.
      files =
          s.filter(f -> !Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS))
              .filter(f -> !f.getFileName().toString().startsWith("."))
              .sorted()
              .toList();
    }
    if (files.isEmpty()) {
      throw new java.nio.file.NoSuchFileException(dir + ": no host facts in it");
    }
    ObjectMapper json = new ObjectMapper();
    List<Finding> out = new ArrayList<>();
    for (Path f : files) {
      String name = f.getFileName().toString();
      String host = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
      // The host is the -l of the fix commands, which Ansible reads as a host pattern: a file
      // named all, '*', '~.*' or gpu_nodes:kube_control_plane would drain every node it matches.
      // Only a plain inventory host name (the inventory's own rule) is compared; any other file is
      // one finding without a fix, and its facts are not read.
      Optional<String> notHost = InventoryBuilder.hostNameProblem(host);
      if (notHost.isPresent()) {
        out.add(
            new Finding(
                "node",
                "",
                "",
                "facts-name",
                "a facts file named after one inventory host",
                f + ": " + notHost.get()));
        continue;
      }
      byte[] bytes;
      try {
        bytes = SafeRead.read(f, MAX_FACTS_BYTES, false);
      } catch (EnvironmentFailure e) {
        throw e.prefixed(f + " ");
      }
      JsonNode root;
      try {
        root = json.readTree(bytes);
      } catch (IOException e) {
        out.add(new Finding("node", "", host, "facts", "JSON facts", "unreadable: " + f));
        continue;
      }
      out.addAll(node(plan, host, root));
    }
    Collections.sort(out);
    return out;
  }

  static List<Finding> node(ClusterPlan plan, String host, JsonNode root) {
    ClusterSpec spec = plan.spec();
    JsonNode local = root.path("ansible_facts").path("ansible_local");
    if (local.isMissingNode()) {
      local = root.path("ansible_local");
    }
    JsonNode base = local.path("gpugen");
    List<Finding> out = new ArrayList<>();
    if (!base.isObject()) {
      out.add(
          new Finding(
              "node",
              "",
              host,
              "baseline",
              "ansible_local.gpugen",
              "no baseline fact on the node"));
      return out;
    }
    String poolName = base.path("pool").asText("");
    Optional<Pool> pool = spec.pools().stream().filter(p -> p.name().equals(poolName)).findFirst();
    if (pool.isEmpty()) {
      out.add(new Finding("node", poolName, host, "pool", "a pool of the spec", poolName));
      return out;
    }
    Pool p = pool.get();
    check(out, p, host, "cluster", spec.metadata().name(), base.path("cluster").asText(""));
    String driver = base.path("driver").asText("");
    if (!p.software().driver().equals(driver)) {
      // site.yml never replaces a loaded driver: the rolling upgrade does (drain, reboot,
      // validate).
      out.add(
          new Finding(
              "node",
              p.name(),
              host,
              "driver",
              p.software().driver(),
              driver.isEmpty() ? "none" : driver,
              ShellCommand.of(
                      plan.aws()
                          ? List.of(
                              "ansible-playbook", "-i", "gpugen-inventory", "upgrade-driver.yml")
                          : List.of("ansible-playbook", "upgrade-driver.yml"))
                  + " "
                  + limit(host)
                  + " drains the node, installs the spec's driver, reboots and validates it"));
    }
    check(out, p, host, "cuda", p.software().cuda(), base.path("cuda").asText(""));
    check(
        out,
        p,
        host,
        "container-toolkit",
        p.software().containerToolkit(),
        base.path("container_toolkit").asText(""));
    // A pool that pins NCCL_SOCKET_IFNAME to an interface found on the host: the baseline names it.
    dev.gpugen.plan.PoolPlan pp = plan.pool(p.name());
    String hostInterface = base.path("bootstrap_interface").asText("");
    String nccl = plan.ncclConfSha256(pp, hostInterface);
    check(out, p, host, "nccl-env", nccl, base.path("nccl_env_sha256").asText(""));
    JsonNode live = local.path("gpugen_nccl");
    if (live.has("nccl_env_sha256")) {
      if (!nccl.equals(live.path("nccl_env_sha256").asText(""))) {
        out.add(
            new Finding(
                "node",
                p.name(),
                host,
                "nccl-conf",
                "/etc/nccl.conf as play 04 wrote it",
                live.path("env").isObject()
                    ? ncclDifferences(plan.ncclEnv(pp, hostInterface), live.path("env"))
                    : "a different /etc/nccl.conf (sha256 "
                        + live.path("nccl_env_sha256").asText("")
                        + ", the spec's is "
                        + nccl
                        + ")",
                ShellCommand.of(
                        "ansible-playbook",
                        "-i",
                        "gpugen-inventory",
                        "04-network-tuning.yml",
                        "--check",
                        "--diff")
                    + " "
                    + limit(host)
                    + " shows the change; without --check --diff it writes the spec's file"
                    + " back"));
      }
    } else {
      out.add(
          new Finding(
              "node",
              p.name(),
              host,
              "nccl-conf",
              nccl,
              live.has("error") ? live.path("error").asText() : "no live NCCL fact"));
    }
    String recorded = base.path("gpugen_spec_sha256").asText("");
    boolean earlier =
        !recorded.equals(plan.fingerprint()) && recorded.equals(plan.earlierFingerprint());
    check(
        out,
        p,
        host,
        "spec-sha256",
        plan.fingerprint(),
        earlier
            ? recorded
                + " (the same spec, fingerprinted by an earlier gpugen: run plays 04 and 05"
                + " to record the new fingerprint)"
            : recorded);
    return out;
  }

  /**
   * {@code -l HOST} for a fix command: only ever one host ({@link #nodes} reports any other name
   * before facts are compared).
   */
  private static String limit(String host) {
    InventoryBuilder.hostNameProblem(host)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException(host + ": " + why);
            });
    return ShellCommand.of("-l", host);
  }

  /**
   * The instances beyond the pool's count: the most recently launched ones (those without a launch
   * time last), so the list names what was added, not every instance of the pool.
   */
  static List<String> extra(List<HostFacts> running, int howMany) {
    return running.stream()
        .sorted(
            Comparator.comparing(
                    (HostFacts h) -> h.launchTime().orElse(Instant.MAX), Comparator.reverseOrder())
                .thenComparing(HostFacts::instanceId, Comparator.reverseOrder()))
        .limit(howMany)
        .map(HostFacts::instanceId)
        .sorted()
        .toList();
  }

  /** What differs between the spec's NCCL variables and the node's, in words. */
  static String ncclDifferences(Map<String, String> spec, JsonNode node) {
    Map<String, String> live = new TreeMap<>();
    node.properties().forEach(e -> live.put(e.getKey(), e.getValue().asText("")));
    Set<String> names = new TreeSet<>(spec.keySet());
    names.addAll(live.keySet());
    List<String> words = new ArrayList<>();
    for (String name : names) {
      String want = spec.get(name);
      String have = live.get(name);
      if (want == null) {
        words.add(name + "=" + have + " is set on the node but not in the spec");
      } else if (have == null) {
        words.add(name + " is missing on the node (the spec sets " + want + ")");
      } else if (!want.equals(have)) {
        words.add(name + " is " + have + " on the node, " + want + " in the spec");
      }
    }
    return words.isEmpty() ? "the same variables written differently" : String.join("; ", words);
  }

  private static void check(
      List<Finding> out, Pool p, String host, String kind, String expected, String actual) {
    if (!expected.equals(actual)) {
      out.add(
          new Finding("node", p.name(), host, kind, expected, actual.isEmpty() ? "none" : actual));
    }
  }
}
