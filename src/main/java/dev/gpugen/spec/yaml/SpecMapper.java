package dev.gpugen.spec.yaml;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.ClusterSpec.Ansible;
import dev.gpugen.spec.ClusterSpec.Cloud;
import dev.gpugen.spec.ClusterSpec.DevicePlugin;
import dev.gpugen.spec.ClusterSpec.GpuOperator;
import dev.gpugen.spec.ClusterSpec.Kernel;
import dev.gpugen.spec.ClusterSpec.Lint;
import dev.gpugen.spec.ClusterSpec.Lustre;
import dev.gpugen.spec.ClusterSpec.Metadata;
import dev.gpugen.spec.ClusterSpec.Nccl;
import dev.gpugen.spec.ClusterSpec.Network;
import dev.gpugen.spec.ClusterSpec.Pool;
import dev.gpugen.spec.ClusterSpec.RootVolume;
import dev.gpugen.spec.ClusterSpec.Software;
import dev.gpugen.spec.ClusterSpec.Storage;
import dev.gpugen.spec.ClusterSpec.Taint;
import dev.gpugen.spec.ClusterSpec.Validation;
import dev.gpugen.spec.Keyword;
import dev.gpugen.spec.Market;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Builds the model from values the {@link Binder} has already checked, so nothing here can fail on
 * user input; it only applies the defaults that depend on other values.
 */
final class SpecMapper {
  private SpecMapper() {}

  static List<String> envNames(Map<String, Object> root) {
    return List.copyOf(map(root, "environments").keySet());
  }

  static ClusterSpec toSpec(
      Map<String, Object> root, Optional<String> env, Predicate<String> efaCapable) {
    Map<String, Object> md = map(root, "metadata");
    Metadata metadata =
        new Metadata(str(md, "name"), env.isPresent() ? env : opt(md, "environment"));

    Map<String, Object> sw = map(root, "software");
    Software software = software(sw);

    Map<String, Object> cl = map(root, "cloud");
    String provider = str(cl, "provider");
    Optional<String> region = opt(cl, "region");
    Optional<String> zone =
        opt(cl, "availabilityZone")
            .or(() -> region.filter(r -> provider.equals("aws")).map(r -> r + "a"))
            .or(() -> region.filter(r -> provider.equals("gcp")).map(r -> r + "-a"));
    Map<String, Object> imds = map(cl, "imds");
    Cloud cloud =
        new Cloud(
            provider,
            region,
            zone,
            opt(cl, "sshKeyName"),
            opt(cl, "image").orElse(software.os()),
            new ClusterSpec.Imds(
                imds.containsKey("httpTokens") ? str(imds, "httpTokens") : "required",
                imds.containsKey("hopLimit") ? integer(imds, "hopLimit") : 1),
            opt(cl, "project"),
            cl.containsKey("gke")
                ? Optional.of(
                    new ClusterSpec.Gke(
                        str(map(cl, "gke"), "cluster"),
                        bool(map(cl, "gke"), "create"),
                        str(map(cl, "gke"), "gpuDriver")))
                : Optional.empty());

    Map<String, Object> v = map(root, "validation");
    // A pool's fabric: the spec's network.fabric where written, else EFA where the pool's EC2 type
    // has it and TCP elsewhere, so a mixed cluster is not pushed down to TCP by one pool.
    Optional<String> writtenFabric = opt(map(root, "network"), "fabric");
    List<Pool> pools = new ArrayList<>();
    for (Map<String, Object> p : list(root, "pools")) {
      String type = opt(p, "instanceType").orElse("");
      String fabric =
          writtenFabric.orElse(provider.equals("aws") && efaCapable.test(type) ? "efa" : "tcp");
      pools.add(pool(p, sw, v, fabric));
    }

    Map<String, Object> net = map(root, "network");
    boolean existingVpc = net.containsKey("vpcId");
    Optional<String> vpcCidr =
        opt(net, "vpcCidr").or(() -> existingVpc ? Optional.empty() : Optional.of("10.0.0.0/16"));
    Optional<String> subnetCidr =
        opt(net, "subnetCidr")
            .or(() -> vpcCidr.filter(c -> !existingVpc).map(SpecMapper::firstSlash20));
    String fabric =
        opt(net, "fabric")
            .orElseGet(
                () ->
                    provider.equals("aws")
                            && pools.stream().allMatch(p -> efaCapable.test(p.instanceType()))
                        ? "efa"
                        : "tcp");
    Network network =
        new Network(
            vpcCidr,
            subnetCidr,
            opt(net, "vpcId"),
            opt(net, "subnetId"),
            strings(net, "sshIngressCidrs"),
            str(net, "placement"),
            fabric,
            opt(net, "internet").orElse(existingVpc ? "existing" : "nat"));

    Map<String, Object> st = map(root, "storage");
    Optional<Lustre> lustre = Optional.empty();
    if (st.containsKey("lustre")) {
      Map<String, Object> l = map(st, "lustre");
      lustre =
          Optional.of(
              new Lustre(
                  integer(l, "capacityGiB"),
                  str(l, "deploymentType"),
                  optInt(l, "perUnitStorageThroughput"),
                  str(l, "mountPoint")));
    }
    Storage storage = new Storage(lustre, opt(st, "checkpointBucket"));

    Map<String, Object> k = map(root, "kernel");
    Kernel kernel = new Kernel(bool(k, "blacklistNouveau"), stringMap(k, "sysctl"));
    Nccl nccl = new Nccl(stringMap(map(root, "nccl"), "env"));
    Optional<ClusterSpec.GitOps> gitops = gitops(map(root, "gitops"), metadata.name(), env);
    Optional<ClusterSpec.Kubernetes> kubernetes = kubernetes(map(root, "kubernetes"));

    Validation validation = validation(v);

    Map<String, Object> an = map(root, "ansible");
    Map<String, Object> pull = map(an, "pull");
    Ansible ansible =
        new Ansible(
            integer(an, "forks"),
            str(an, "mode"),
            new ClusterSpec.Pull(
                str(pull, "source"),
                opt(pull, "gitUrl"),
                opt(pull, "gitRef"),
                opt(pull, "gitPath")));
    Map<String, Object> bastion = map(an, "bastion");
    ClusterSpec.Connection connection =
        new ClusterSpec.Connection(
            opt(an, "connection").orElse(network.sshIngressCidrs().isEmpty() ? "ssm" : "ssh"),
            bastion.containsKey("host")
                ? Optional.of(
                    new ClusterSpec.Bastion(
                        str(bastion, "host"), str(bastion, "user"), integer(bastion, "port")))
                : Optional.empty());
    Map<String, Object> s3 = map(map(map(root, "terraform"), "backend"), "s3");
    ClusterSpec.Terraform terraform =
        new ClusterSpec.Terraform(
            s3.containsKey("bucket")
                ? Optional.of(
                    new ClusterSpec.S3Backend(
                        str(s3, "bucket"),
                        str(s3, "key"),
                        opt(s3, "region").or(() -> region).orElse("")))
                : Optional.empty());
    Map<String, Object> li = map(root, "lint");
    Lint lint = new Lint(strings(li, "skip"), stringMap(li, "severity"), stringMap(li, "reasons"));

    return new ClusterSpec(
        metadata,
        cloud,
        network,
        storage,
        pools,
        software,
        kernel,
        nccl,
        kubernetes,
        gitops,
        validation,
        ansible,
        connection,
        terraform,
        lint,
        envNames(root),
        env);
  }

  private static Optional<ClusterSpec.Kubernetes> kubernetes(Map<String, Object> k) {
    if (!k.containsKey("distribution")) {
      return Optional.empty();
    }
    List<ClusterSpec.Host> hosts = new ArrayList<>();
    for (Map<String, Object> h : list(map(k, "controlPlane"), "hosts")) {
      hosts.add(new ClusterSpec.Host(str(h, "name"), str(h, "address"), stringMap(h, "vars")));
    }
    return Optional.of(
        new ClusterSpec.Kubernetes(
            str(k, "distribution"),
            str(k, "version"),
            str(k, "endpointAccess"),
            strings(k, "publicCidrs"),
            strings(k, "admins"),
            hosts,
            opt(map(k, "controlPlane"), "endpoint"),
            str(map(k, "controlPlane"), "instanceType"),
            integer(map(k, "controlPlane"), "count"),
            str(k, "cni")));
  }

  /** The argocd/ folder defaults to where gpugen render writes it from the repository root. */
  private static Optional<ClusterSpec.GitOps> gitops(
      Map<String, Object> g, String name, Optional<String> env) {
    if (!g.containsKey("argocd")) {
      return Optional.empty();
    }
    Map<String, Object> a = map(g, "argocd");
    String folder = ClusterSpec.outputFolder(name, env);
    return Optional.of(
        new ClusterSpec.GitOps(
            new ClusterSpec.ArgoCd(
                str(a, "repoURL"),
                str(a, "targetRevision"),
                opt(a, "path").orElse(folder + "/argocd"),
                str(a, "namespace"),
                str(a, "project"),
                str(a, "server"),
                bool(a, "automated"))));
  }

  private static Pool pool(
      Map<String, Object> p,
      Map<String, Object> clusterSoftware,
      Map<String, Object> clusterValidation,
      String fabric) {
    Map<String, Object> rv = map(p, "rootVolume");
    RootVolume root =
        new RootVolume(
            str(rv, "type"),
            integer(rv, "sizeGiB"),
            optInt(rv, "iops"),
            optInt(rv, "throughput"),
            bool(rv, "encrypted"));
    List<Taint> taints = new ArrayList<>();
    for (Map<String, Object> t : list(p, "taints")) {
      taints.add(new Taint(str(t, "key"), opt(t, "value"), str(t, "effect")));
    }
    Optional<ClusterSpec.StaticGpu> gpu = Optional.empty();
    if (p.containsKey("gpu")) {
      Map<String, Object> g = map(p, "gpu");
      gpu =
          Optional.of(
              new ClusterSpec.StaticGpu(
                  str(g, "model"),
                  integer(g, "count"),
                  Optional.ofNullable((Boolean) g.get("nvswitch"))));
    }
    List<ClusterSpec.Host> hosts = new ArrayList<>();
    for (Map<String, Object> h : list(p, "hosts")) {
      hosts.add(new ClusterSpec.Host(str(h, "name"), str(h, "address"), stringMap(h, "vars")));
    }
    // A static pool has as many nodes as hosts.
    int count = p.containsKey("hosts") ? hosts.size() : integer(p, "count");
    return new Pool(
        str(p, "name"),
        opt(p, "instanceType").orElse(""),
        count,
        Keyword.of(Market.class, str(p, "market")),
        root,
        stringMap(p, "labels"),
        taints,
        software(deepMerge(clusterSoftware, map(p, "software"))),
        validation(deepMerge(clusterValidation, map(p, "validation"))),
        gpu,
        hosts,
        p.containsKey("autoscaling")
            ? Optional.of(
                new ClusterSpec.Autoscaling(
                    integer(map(p, "autoscaling"), "min"), integer(map(p, "autoscaling"), "max")))
            : Optional.empty(),
        fabric);
  }

  private static Software software(Map<String, Object> sw) {
    Map<String, Object> op = map(sw, "gpuOperator");
    Map<String, Object> dp = map(sw, "devicePlugin");
    return new Software(
        str(sw, "os"),
        str(sw, "driver"),
        str(sw, "cuda"),
        str(sw, "containerToolkit"),
        str(sw, "kernelModules"),
        new GpuOperator(str(op, "version"), bool(op, "dcgmExporter"), bool(op, "migManager")),
        new DevicePlugin(integer(dp, "timeSlicingReplicas")));
  }

  private static Validation validation(Map<String, Object> v) {
    Map<String, Object> ar = map(v, "ncclAllReduce");
    return new Validation(
        integer(v, "gpuBurnSeconds"),
        integer(v, "dcgmDiagLevel"),
        Optional.ofNullable((Double) ar.get("minBusBandwidthGBps")),
        str(ar, "minBytes"),
        str(ar, "maxBytes"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> deepMerge(Map<String, Object> base, Map<String, Object> over) {
    Map<String, Object> out = new LinkedHashMap<>(base);
    over.forEach(
        (key, value) ->
            out.merge(
                key,
                value,
                (a, b) ->
                    a instanceof Map && b instanceof Map
                        ? deepMerge((Map<String, Object>) a, (Map<String, Object>) b)
                        : b));
    return out;
  }

  /** 10.42.0.0/16 gives 10.42.0.0/20: the first /20 (or the whole block if it is smaller). */
  private static String firstSlash20(String cidr) {
    String[] parts = cidr.split("/");
    int bits = Integer.parseInt(parts[1]);
    return parts[0] + "/" + Math.max(bits, 20);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v == null ? Map.of() : (Map<String, Object>) v;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v == null ? List.of() : (List<Map<String, Object>>) v;
  }

  @SuppressWarnings("unchecked")
  private static List<String> strings(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v == null ? List.of() : (List<String>) v;
  }

  @SuppressWarnings("unchecked")
  private static SortedMap<String, String> stringMap(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v == null ? new TreeMap<>() : new TreeMap<>((Map<String, String>) v);
  }

  private static String str(Map<String, Object> m, String key) {
    return (String) m.get(key);
  }

  private static Optional<String> opt(Map<String, Object> m, String key) {
    return Optional.ofNullable((String) m.get(key));
  }

  private static int integer(Map<String, Object> m, String key) {
    return ((Long) m.get(key)).intValue();
  }

  private static Optional<Integer> optInt(Map<String, Object> m, String key) {
    return Optional.ofNullable((Long) m.get(key)).map(Long::intValue);
  }

  private static boolean bool(Map<String, Object> m, String key) {
    return (Boolean) m.get(key);
  }
}
