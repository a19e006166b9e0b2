package dev.gpugen.plan;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.KernelModule;
import dev.gpugen.compat.Version;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.KernelModules;
import dev.gpugen.spec.Placement;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Sha256;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A resolved spec with every fact derived from it, computed once: the stage between the spec and
 * everything that reads it (lint rules, render views, drift, the inventory settings). Nothing
 * downstream derives one of these facts a second time.
 *
 * @param spec the resolved spec
 * @param compat the knowledge base the facts come from
 * @param qualifiedName the cluster's name plus {@code -ENV} when it has an environment: Terraform's
 *     {@code local.name}, the prefix of AWS resource names, ArgoCD Application names and the pull
 *     bundle's folder
 * @param pools every pool's facts, in spec order
 * @param ncclConf /etc/nccl.conf as NCCL reads it: one {@code NAME=value} line per setting, sorted
 *     by name (the text play 04 writes, the ConfigMaps hold and drift hashes)
 * @param fingerprint SHA-256 of the canonical form of the deployed values ({@link Canonical}):
 *     linter settings and the list of declared environments do not count, nor do comments or
 *     formatting of the spec. Nodes record it; pull bundles are keyed by it; drift compares it.
 * @param sources the public sources the rendered node plays download from, and their mirrors
 */
public record ClusterPlan(
    ClusterSpec spec,
    CompatTable compat,
    String qualifiedName,
    List<PoolPlan> pools,
    String ncclConf,
    String fingerprint,
    Sources sources) {

  /** Spec components that configure nothing deployed, so they stay out of the fingerprint. */
  private static final Set<String> NOT_DEPLOYED =
      Set.of("lint", "environments", "selectedEnvironment", "connection", "terraform");

  public ClusterPlan {
    pools = List.copyOf(pools);
    java.util.Objects.requireNonNull(sources);
  }

  public static ClusterPlan of(ClusterSpec spec, CompatTable compat) {
    String qualifiedName =
        spec.metadata().name() + spec.metadata().environment().map(e -> "-" + e).orElse("");
    Provider provider = spec.cloud().provider();
    List<PoolPlan> pools = new ArrayList<>();
    for (ClusterSpec.Pool p : spec.pools()) {
      Hardware hw = Hardware.of(provider, p, compat);
      boolean verbs = p.fabric() == Fabric.INFINIBAND || p.fabric() == Fabric.ROCE;
      Optional<Integer> ports =
          verbs
              ? p.rdma().hcaPorts().or(() -> hw.gpu().flatMap(g -> boxed(g.referenceHcaPorts())))
              : Optional.empty();
      Optional<Integer> gbps =
          verbs
              ? p.rdma().linkGbps().or(() -> hw.gpu().flatMap(g -> boxed(g.referenceLinkGbps())))
              : Optional.empty();
      pools.add(
          new PoolPlan(
              p,
              hw,
              kernelModules(p.software(), hw.gpu(), compat),
              // gpugen-inventory's own naming, so render and inventory name the group alike.
              GroupName.of("pool_", p.name()),
              PoolPlan.identifier(p.name()),
              // A pool launched into a Capacity Reservation (a Capacity Block, or a targeted
              // On-Demand one) gets no placement group of gpugen's: EC2 places a Capacity Block's
              // instances in an UltraCluster itself, and a reservation made outside gpugen's group
              // cannot serve instances asked for inside it.
              spec.network().placement() == Placement.NONE || p.capacityReservationId().isPresent()
                  ? Optional.empty()
                  : Optional.of(placementGroup(qualifiedName, p, spec.network().placement())),
              Math.max(1, p.software().devicePlugin().timeSlicingReplicas()),
              // A renamed pool keeps its launch template's name: a new name replaces the template,
              // and with it every node launched from it.
              qualifiedName + "-" + p.renamedFrom().orElse(p.name()) + "-",
              provider == Provider.AWS ? PoolPlan.nodes(qualifiedName, p) : List.of(),
              ports,
              gbps,
              p.validation()
                  .minMultiNodeBusBandwidthGBps()
                  .or(() -> verbs ? multiNodeDefault(ports, gbps, hw) : Optional.empty()),
              verbs && !spec.nccl().env().containsKey("NCCL_SOCKET_IFNAME")));
    }
    StringBuilder nccl = new StringBuilder();
    new TreeMap<>(spec.nccl().env())
        .forEach((k, v) -> nccl.append(k).append('=').append(v).append('\n'));
    boolean nodeTree = provider != dev.gpugen.spec.Provider.GCP;
    return new ClusterPlan(
        spec,
        compat,
        qualifiedName,
        pools,
        nccl.toString(),
        Sha256.hex(Canonical.json(spec, NOT_DEPLOYED)),
        Sources.of(
            spec,
            nodeTree,
            kubeadm(spec),
            provider == dev.gpugen.spec.Provider.AWS && spec.storage().lustre().isPresent(),
            efaPools(spec)));
  }

  /**
   * The name of a pool's placement group: {@code NAME[-ENV]-POOL} for the cluster strategy, {@code
   * NAME[-ENV]-POOL-STRATEGY} for the others. EC2 cannot change a group's strategy, so the name
   * follows it: a new strategy is a new group, created before the old one is deleted (its instances
   * leave it first), never the old name re-created under running instances. A renamed pool keeps
   * its group's name (renamedFrom): a group cannot be renamed either.
   */
  static String placementGroup(String qualifiedName, ClusterSpec.Pool pool, Placement placement) {
    String name = qualifiedName + "-" + pool.renamedFrom().orElse(pool.name());
    return placement == Placement.CLUSTER ? name : name + "-" + placement.spelling();
  }

  /**
   * This plan with each pool's placement group named as the previous render of the same folder
   * named it, when that render used the same strategy: EC2 can rename no group, so a new name
   * creates a new one and replaces every node launched into the old. Only a strategy change gives a
   * group the name {@link #placementGroup} computes. A render recorded it under {@code
   * pools[POOL].placementGroup} ({@link ChangeImpact#values}); a render of the release before the
   * name followed the strategy recorded none, nor any accepted node settings (both came together),
   * and named every group {@code NAME[-ENV]-POOL}, the name the cluster strategy computes. So a
   * change to cluster from such a group would ask EC2 for a second group of the same name ({@code
   * InvalidPlacementGroup.Duplicate}: the new one is created before the old one goes) and keep the
   * nodes in the old: the new group is then named {@code NAME[-ENV]-POOL-cluster}. Without a
   * previous render (a fresh folder) nothing is known and the computed name stands
   * (docs/terraform.md, "Upgrading").
   *
   * @param previous the previous render's manifest values, empty for none
   */
  public ClusterPlan keepingPlacementGroups(java.util.SortedMap<String, String> previous) {
    String previousStrategy = previous.get(ChangeImpact.PLACEMENT);
    if (!aws() || previousStrategy == null) {
      return this;
    }
    Placement strategy = spec.network().placement();
    boolean same = strategy.spelling().equals(previousStrategy);
    boolean beforeStrategyNames =
        previous.keySet().stream().noneMatch(k -> k.startsWith(NodeSettings.ACCEPTED));
    List<PoolPlan> kept = new ArrayList<>();
    for (PoolPlan pp : pools) {
      String was = pp.pool().renamedFrom().orElse(pp.name());
      String at = "pools[" + was + "].";
      Optional<String> previousGroup =
          Optional.ofNullable(previous.get(at + ChangeImpact.PLACEMENT_GROUP))
              .or(
                  () ->
                      beforeStrategyNames && previous.containsKey(at + "count")
                          ? Optional.of(qualifiedName + "-" + was)
                          : Optional.empty());
      Optional<String> name =
          pp.placementGroup()
              .flatMap(
                  g ->
                      same
                          ? previousGroup
                          : previousGroup
                              .filter(g::equals)
                              .map(x -> g + "-" + strategy.spelling()));
      kept.add(
          name.isEmpty()
              ? pp
              : new PoolPlan(
                  pp.pool(),
                  pp.hardware(),
                  pp.kernelModules(),
                  pp.group(),
                  pp.tfPrefix(),
                  name,
                  pp.timeSlicingReplicas(),
                  pp.launchTemplateNamePrefix(),
                  pp.nodes(),
                  pp.hcaPorts(),
                  pp.linkGbps(),
                  pp.minMultiNodeBusBandwidthGbps(),
                  pp.pinSocketIfname()));
    }
    return new ClusterPlan(spec, compat, qualifiedName, kept, ncclConf, fingerprint, sources);
  }

  /**
   * Whether play 02b bootstraps the cluster: kubeadm on static hosts with a control-plane host, or
   * on aws, where the Terraform creates the control-plane instances (the linter refuses kubeadm
   * anywhere else).
   */
  public boolean kubeadm() {
    return kubeadm(spec);
  }

  /**
   * The pod network's ports between the hosts of a kubeadm cluster ({@code kubernetes.cni}); empty
   * for any other distribution, whose pod network is not gpugen's.
   */
  public java.util.SortedMap<String, PodNetworkPort> podNetworkPorts() {
    return kubeadm()
        ? PodNetworkPort.of(spec.kubernetes().orElseThrow().cni())
        : java.util.Collections.emptySortedMap();
  }

  /**
   * The pod and Service networks kubeadm init gets, where play 02b bootstraps the cluster; empty
   * otherwise.
   */
  public Optional<KubeadmNetwork> kubeadmNetwork() {
    return kubeadm() ? Optional.of(KubeadmNetwork.of(spec)) : Optional.empty();
  }

  private static boolean kubeadm(ClusterSpec spec) {
    boolean statics = spec.cloud().provider() == dev.gpugen.spec.Provider.STATIC;
    boolean aws = spec.cloud().provider() == dev.gpugen.spec.Provider.AWS;
    return spec.kubernetes()
        .filter(k -> k.kubeadm() && (statics && !k.controlPlaneHosts().isEmpty() || aws))
        .isPresent();
  }

  /**
   * Whether some pool's fabric is EFA: play 04 then installs the EFA installer and GDRCopy on those
   * pools' hosts, and after them the AWS EFA device plugin.
   */
  public boolean efaPools() {
    return efaPools(spec);
  }

  private static boolean efaPools(ClusterSpec spec) {
    return spec.pools().stream().anyMatch(p -> p.fabric() == Fabric.EFA);
  }

  /**
   * The tolerations every node-level DaemonSet gpugen installs carries (the GPU Operator's operands
   * and NFD worker, the EFA and RDMA device plugins): one per distinct blocking taint of the GPU
   * pools, then play 05's verdict taint where play 05 sets it.
   */
  public List<Toleration> gpuNodeTolerations() {
    return Scheduling.gpuNodeTolerations(spec, ValidationState.applies(this));
  }

  /** EKS's system pool, where the spec or the default turns it on (see {@link SystemPool}). */
  public Optional<SystemPool> systemPool() {
    return Scheduling.systemPool(spec);
  }

  /**
   * eks: the add-ons gpugen installs and their exact versions: the spec's kubernetes.addons over
   * gpugen's table for the minor ({@link dev.gpugen.compat.EksAddonVersions}); a core add-on with
   * neither is left out (k8s-addon-version-unknown refuses the spec). Empty without eks.
   */
  public java.util.SortedMap<String, String> eksAddonVersions() {
    java.util.SortedMap<String, String> out = new TreeMap<>();
    spec.kubernetes()
        .filter(ClusterSpec.Kubernetes::eks)
        .ifPresent(
            k -> {
              for (String addon : dev.gpugen.compat.EksAddonVersions.CORE) {
                dev.gpugen.compat.EksAddonVersions.version(addon, k.version())
                    .ifPresent(v -> out.put(addon, v));
              }
              out.putAll(k.addonVersions());
            });
    return java.util.Collections.unmodifiableSortedMap(out);
  }

  /** Where the cluster's controllers run without help (see {@link Scheduling.ControllerHome}). */
  public Scheduling.ControllerHome controllerHome() {
    return Scheduling.controllerHome(spec, kubeadm());
  }

  /**
   * The tolerations the controllers gpugen installs (the GPU Operator, NFD's master and garbage
   * collector) carry beyond their charts' own, so that they have a node.
   */
  public java.util.SortedMap<String, String> controllerNodeSelector() {
    return Scheduling.controllerNodeSelector(spec, kubeadm());
  }

  public List<Toleration> controllerTolerations() {
    return Scheduling.controllerTolerations(spec, kubeadm(), ValidationState.applies(this));
  }

  /** The Kubernetes labels gpugen puts on pool {@code p}'s nodes (besides per-node config). */
  public java.util.SortedMap<String, String> nodeLabels(PoolPlan p) {
    return Scheduling.nodeLabels(spec, p.pool());
  }

  /** The pool named {@code name}; it must exist. */
  public PoolPlan pool(String name) {
    return pools.stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no pool " + name));
  }

  /**
   * The kernel-module flavour of the cluster-wide software, before any pool's GPU is known: the
   * driver branch's default unless the spec chooses. Each pool's group vars override it with {@link
   * PoolPlan#kernelModules()}.
   */
  public String clusterKernelModules() {
    return kernelModules(spec.software(), Optional.empty(), compat);
  }

  /** The driver branch of a software stack: its driver version's major ({@code 570}). */
  public static String driverBranch(ClusterSpec.Software s) {
    return s.driver().substring(0, s.driver().indexOf('.'));
  }

  /**
   * The newest CUDA major a software stack's driver branch runs: the table's max_cuda_major, else
   * the toolkit's major as written. A driver that is no version (the linter reports it) falls back
   * to the toolkit's major, and the role's settings check refuses a value that is no number.
   */
  public String driverCudaMajor(ClusterSpec.Software s) {
    java.util.OptionalInt known = java.util.OptionalInt.empty();
    try {
      known =
          compat
              .driverBranch(Version.parse(s.driver()))
              .map(b -> b.maxCudaMajor())
              .orElse(java.util.OptionalInt.empty());
    } catch (dev.gpugen.failure.InvalidInput e) {
      // Not a version: the toolkit's major below.
    }
    return known.isPresent() && known.getAsInt() > 0
        ? Integer.toString(known.getAsInt())
        : s.cuda().replaceFirst("[.].*", "");
  }

  /** SHA-256 of {@link #ncclConf()}: the NCCL baseline nodes record and drift compares. */
  public String ncclConfSha256() {
    return Sha256.hex(ncclConf);
  }

  /**
   * SHA-256 of a pool's {@link #ncclConf(PoolPlan, String)}: what its nodes record, drift compares.
   */
  public String ncclConfSha256(PoolPlan pool, String hostInterface) {
    return Sha256.hex(ncclConf(pool, hostInterface));
  }

  /**
   * The fingerprint gpugen recorded before {@link #fingerprint} had a canonical form (SHA-256 of
   * the model's {@code toString()}): drift tells a node that recorded it "the same spec,
   * fingerprinted by an earlier gpugen" rather than a changed one.
   */
  public String earlierFingerprint() {
    return Sha256.hex(spec.toString());
  }

  public Provider provider() {
    return spec.cloud().provider();
  }

  public boolean aws() {
    return provider() == Provider.AWS;
  }

  public boolean gke() {
    return provider() == Provider.GCP;
  }

  /**
   * What {@code gpugen down} destroys while storage.retain keeps the FSx file system or the
   * checkpoint bucket: a whole-state destroy would reach their prevent_destroy and Terraform would
   * refuse the entire plan, leaving every node running. These addresses (and what depends on them)
   * are everything that bills by the hour and that the retained data does not need: the nodes, the
   * kubeadm control plane and its load balancer, the EKS cluster, the NAT gateway and its address,
   * the interface endpoints. The VPC, subnet and security groups stay, since the file system lives
   * in them. An address the render does not have is no error for terraform destroy -target. Empty:
   * destroy everything.
   */
  public List<String> downTargets() {
    ClusterSpec.Storage storage = spec.storage();
    boolean retained =
        aws()
            && storage.retain()
            && (storage.lustre().isPresent() || storage.checkpointBucket().isPresent());
    if (!retained) {
      return List.of();
    }
    return List.of(
        "module.pool",
        "aws_instance.control_plane",
        "aws_lb.kube_api",
        "aws_eks_cluster.this",
        "aws_nat_gateway.this",
        "aws_eip.nat",
        "aws_vpc_endpoint.interface");
  }

  /** Bare metal: the hosts exist already and are listed in the spec. */
  public boolean staticHosts() {
    return provider() == Provider.STATIC;
  }

  /**
   * A static host as the spec lists it: a GPU host of a pool, or a kubeadm control-plane host.
   *
   * @param at where the spec lists it ({@code pools[1].hosts[0]}, {@code
   *     kubernetes.controlPlane.hosts[0]})
   * @param label how messages name it: {@code l4.hosts[0]}, {@code
   *     kubernetes.controlPlane.hosts[0]}
   * @param pool the pool of a GPU host; empty for a control-plane host
   * @param host its name, address and variables
   */
  public record HostEntry(SpecPath at, String label, Optional<String> pool, ClusterSpec.Host host) {
    /**
     * Whether {@code other} is this machine written again: a GPU host that is also a control-plane
     * host has one name, one address and one set of variables in both lists.
     */
    public boolean sameMachine(HostEntry other) {
      return host.equals(other.host) && pool.isPresent() != other.pool.isPresent();
    }
  }

  /**
   * Every static host entry of the spec, the one list of static host names and addresses: each
   * pool's hosts in spec order, then {@code kubernetes.controlPlane.hosts}. inventory.yml has one
   * host per name, so a name listed twice is one machine (spec-pool-shape refuses anything else).
   */
  public List<HostEntry> hostEntries() {
    List<HostEntry> out = new ArrayList<>();
    for (int i = 0; i < spec.pools().size(); i++) {
      ClusterSpec.Pool p = spec.pools().get(i);
      for (int h = 0; h < p.hosts().size(); h++) {
        out.add(
            new HostEntry(
                SpecPath.of("pools", i, "hosts").index(h),
                p.name() + ".hosts[" + h + "]",
                Optional.of(p.name()),
                p.hosts().get(h)));
      }
    }
    spec.kubernetes()
        .ifPresent(
            k -> {
              for (int h = 0; h < k.controlPlaneHosts().size(); h++) {
                SpecPath at = SpecPath.of("kubernetes", "controlPlane", "hosts").index(h);
                out.add(
                    new HostEntry(
                        at, at.toString(), Optional.empty(), k.controlPlaneHosts().get(h)));
              }
            });
    return out;
  }

  /**
   * The FSx for Lustre file system the Terraform creates and the nodes mount (storage.lustre; AWS
   * only: no other target creates one, lint rule fsx-lustre-not-created says so).
   */
  public Optional<ClusterSpec.Lustre> lustre() {
    return aws() ? spec.storage().lustre() : Optional.empty();
  }

  /** Whether nodes configure themselves at boot (ansible.mode pull; AWS only). */
  public boolean pullMode() {
    return aws() && spec.ansible().pullMode();
  }

  /**
   * Whether Ansible reaches the EC2 nodes through SSM Session Manager (then Terraform creates the
   * transfer bucket and the inventory sets the aws_ssm connection variables).
   */
  public boolean ssmConnection() {
    return aws() && spec.connection().ssm();
  }

  /**
   * The start of the SSM transfer bucket's name, which ssm.tf completes with the account id and the
   * region ({@code <prefix><account id>-<region>}, at most 63 characters) and gpugen-inventory
   * computes the same way from its settings and each instance's account and region: a name fixed by
   * the render, never read from a tag, since any account can own a bucket whose name only starts
   * with the prefix. A qualified name longer than 28 characters is cut to 19 and a hash of the
   * whole, so two long names never share a bucket. Empty without SSM.
   */
  public Optional<String> ssmBucketPrefix() {
    if (!ssmConnection()) {
      return Optional.empty();
    }
    String name =
        qualifiedName.length() <= 28
            ? qualifiedName
            : qualifiedName.substring(0, 19)
                + "-"
                + Sha256.hex(qualifiedName.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .substring(0, 8);
    return Optional.of(name + "-ssm-");
  }

  /**
   * The AWS services Terraform gives interface endpoints, sorted. In an air-gapped VPC that gpugen
   * creates they are the nodes' only way to the APIs they call: Session Manager's ssm, ssmmessages
   * and ec2messages
   * (https://docs.aws.amazon.com/systems-manager/latest/userguide/setup-create-vpc.html), in pull
   * mode ec2, for the node's tag with its validation result, and with EKS those of {@link
   * #EKS_PRIVATE_CLUSTER_ENDPOINTS}. Empty otherwise.
   */
  public List<String> vpcInterfaceEndpoints() {
    ClusterSpec.Network n = spec.network();
    if (!aws() || !n.createsVpc() || n.internet() != Internet.NONE) {
      return List.of();
    }
    java.util.TreeSet<String> out =
        new java.util.TreeSet<>(List.of("ec2messages", "ssm", "ssmmessages"));
    if (pullMode()) {
      out.add("ec2");
    }
    if (spec.kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent()) {
      out.addAll(EKS_PRIVATE_CLUSTER_ENDPOINTS);
    }
    return List.copyOf(out);
  }

  /**
   * What the nodes of an EKS cluster without outbound internet access reach through interface
   * endpoints (Amazon EKS User Guide, "Deploy private clusters with limited internet access":
   * https://docs.aws.amazon.com/eks/latest/userguide/private-clusters.html): ec2 (the VPC CNI
   * assigns addresses, the node's DNS name), ecr.api and ecr.dkr with S3's gateway endpoint (the
   * VPC CNI, kube-proxy and CoreDNS images), eks, eks-auth (Pod Identity), sts (IAM roles for
   * service accounts). Load balancers, X-Ray and CloudWatch Logs are left out: gpugen deploys
   * nothing that calls them.
   */
  static final List<String> EKS_PRIVATE_CLUSTER_ENDPOINTS =
      List.of("ec2", "ecr.api", "ecr.dkr", "eks", "eks-auth", "sts");

  /**
   * What the node subnet of a VPC gpugen creates must have room for, each with the addresses it
   * takes (AWS): one per instance, since an instance's primary interface on network card 0 takes
   * one and the EFA-only interfaces on its other cards take none
   * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html); one per interface endpoint
   * (https://docs.aws.amazon.com/vpc/latest/privatelink/privatelink-access-aws-services.html); the
   * eight free addresses an internal Network Load Balancer asks for when AWS picks its address
   * (https://docs.aws.amazon.com/elasticloadbalancing/latest/network/availability-zones.html); the
   * six EKS asks for in each cluster subnet
   * (https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html). Empty for an existing
   * VPC, whose subnet gpugen cannot see.
   */
  public List<AddressUse> nodeSubnetUses() {
    if (!aws() || !spec.network().createsVpc()) {
      return List.of();
    }
    List<AddressUse> out = new ArrayList<>();
    for (ClusterSpec.Pool p : spec.pools()) {
      out.add(new AddressUse("the " + p.count() + " instances of pool " + p.name(), p.count()));
    }
    spec.kubernetes()
        .filter(ClusterSpec.Kubernetes::kubeadm)
        .ifPresent(
            k -> {
              out.add(
                  new AddressUse(
                      "the " + k.controlPlaneCount() + " control-plane instances",
                      k.controlPlaneCount()));
              if (k.controlPlaneCount() > 1) {
                out.add(new AddressUse("the control plane's internal load balancer", 8));
              }
            });
    List<String> endpoints = vpcInterfaceEndpoints();
    if (!endpoints.isEmpty()) {
      out.add(
          new AddressUse(
              "the "
                  + endpoints.size()
                  + " interface endpoints ("
                  + String.join(", ", endpoints)
                  + ")",
              endpoints.size()));
    }
    if (spec.kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent()) {
      out.add(new AddressUse("the EKS control plane's network interfaces", 6));
    }
    return List.copyOf(out);
  }

  /** Addresses something in a subnet takes, and what it is (for a message). */
  public record AddressUse(String what, int addresses) {}

  /**
   * The /28s Terraform carves from the end of a VPC it creates, beside the node subnet (network.tf,
   * eks.tf): the NAT gateway's public subnet (the last /28, with internet nat) and EKS's second
   * control-plane subnet in another zone (the second-to-last /28). Keyed by what each is for; empty
   * for an existing VPC.
   */
  public java.util.SortedMap<String, dev.gpugen.spec.Cidr> carvedSubnets() {
    java.util.SortedMap<String, dev.gpugen.spec.Cidr> out = new TreeMap<>();
    ClusterSpec.Network n = spec.network();
    if (!aws() || !n.createsVpc() || n.vpcCidr().isEmpty()) {
      return out;
    }
    dev.gpugen.spec.Cidr vpc = dev.gpugen.spec.Cidr.parse(n.vpcCidr().get()).canonical();
    if (vpc.bits() > 28) {
      return out;
    }
    long end = vpc.network() + (1L << (32 - vpc.bits()));
    if (n.natGateway()) {
      out.put("the NAT gateway's public subnet", new dev.gpugen.spec.Cidr(end - 16, 28));
    }
    if (spec.kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent() && vpc.bits() < 28) {
      out.put("EKS's second control-plane subnet", new dev.gpugen.spec.Cidr(end - 32, 28));
    }
    return out;
  }

  /** Whether the GPU Operator installs the driver on GKE (else GKE's own driver and plugin). */
  public boolean gkeOperatorDriver() {
    return spec.cloud().gke().map(ClusterSpec.Gke::operatorDriver).orElse(true);
  }

  /**
   * Whether GKE, not software.driver, chooses the nodes' driver ({@code gpuDriver: gke}): the
   * driver of the node image's release, which gpugen cannot look up.
   */
  public boolean gkeChoosesDriver() {
    return !gkeOperatorDriver();
  }

  /** GKE's driver installation config for every GPU node pool, on GKE; empty elsewhere. */
  public Optional<GkeDriverInstallation> gkeDriverInstallation() {
    return spec.cloud()
        .gke()
        .map(
            g ->
                g.operatorDriver()
                    ? GkeDriverInstallation.INSTALLATION_DISABLED
                    : switch (g.gpuDriverVersion()) {
                      case DEFAULT -> GkeDriverInstallation.DEFAULT;
                      case LATEST -> GkeDriverInstallation.LATEST;
                    });
  }

  /**
   * The GPU Operator release the spec names ({@code software.gpuOperator.version}), if the table
   * has it.
   */
  public Optional<dev.gpugen.compat.GpuOperatorRelease> gpuOperatorRelease() {
    return compat.gpuOperator(Version.parse(spec.software().gpuOperator().version()));
  }

  /**
   * The DCGM image whose {@code dcgmi} play 05's GKE validation Job runs: the host engine image of
   * the spec's GPU Operator release (its {@code dcgm.version}), so the client matches the engine
   * the operator runs on every GPU node; empty for a release the table does not know (the role's
   * default image then).
   */
  public Optional<String> dcgmImage() {
    return gpuOperatorRelease().flatMap(dev.gpugen.compat.GpuOperatorRelease::dcgmImage);
  }

  /**
   * The last day of the maintenance exclusion (scope {@code NO_MINOR_OR_NODE_UPGRADES}) that holds
   * a GKE cluster gpugen creates at its version: {@code cloud.gke.holdUpgradesUntil}, else the end
   * of standard support of {@code cloud.gke.version}'s minor from the table; empty when neither
   * says (the linter refuses that spec: gcp-gke-version-unknown).
   */
  public Optional<String> gkeHoldUpgradesUntil() {
    return spec.cloud()
        .gke()
        .flatMap(
            g ->
                g.holdUpgradesUntil()
                    .or(
                        () ->
                            compat
                                .gkeVersion(g.minorVersion())
                                .map(v -> v.endOfStandardSupport().toString())));
  }

  /**
   * Whether the Terraform renders GKE's system pool ({@code kubernetes.systemPool}), where it is
   * enabled. (EKS's is {@link #systemPool()}.)
   */
  public boolean gkeSystemPool() {
    return gke() && spec.systemPool().enabled();
  }

  /**
   * The GPU Operator's pods on each GPU node of GKE, all at priority system-node-critical (the
   * chart's {@code daemonsets.priorityClassName} and {@code
   * node-feature-discovery.priorityClassName}): the operand DaemonSets gpugen's values enable
   * (driver, container toolkit, device plugin, GPU feature discovery, the DCGM host engine, the
   * operator validator, and the DCGM exporter and MIG manager where the spec enables them) and the
   * NFD worker. NVIDIA/gpu-operator deployments/gpu-operator/values.yaml at the release: each is a
   * DaemonSet on the nodes NFD labels nvidia.com/gpu.present.
   */
  public int gkeOperatorPodsPerGpuNode() {
    ClusterSpec.GpuOperator op = spec.software().gpuOperator();
    return 7 + (op.dcgmExporter() ? 1 : 0) + (op.migManager() ? 1 : 0);
  }

  /**
   * The {@code pods} of the GPU Operator namespace's ResourceQuota on GKE, which admits its
   * system-node-critical and system-cluster-critical pods outside kube-system: twice what the
   * largest cluster runs (every pool at its maximum times {@link #gkeOperatorPodsPerGpuNode}, one
   * NFD worker per system pool node, and the operator's three Deployments: the operator, NFD master
   * and NFD garbage collector), so that roll-outs and nodes coming and going never hit it. A quota
   * below that keeps the device plugin off the nodes beyond it, without a word.
   */
  public int gkeOperatorPodQuota() {
    int gpuNodes = pools.stream().mapToInt(PoolPlan::maxNodes).sum();
    ClusterSpec.SystemPool sp = spec.systemPool();
    int systemNodes =
        gkeSystemPool() ? sp.autoscaling().map(ClusterSpec.Autoscaling::max).orElse(sp.count()) : 0;
    return 2 * (gpuNodes * gkeOperatorPodsPerGpuNode() + systemNodes + 3);
  }

  private static Optional<Integer> boxed(java.util.OptionalInt i) {
    return i.isPresent() ? Optional.of(i.getAsInt()) : Optional.empty();
  }

  /**
   * The default multi-node threshold of an InfiniBand/RoCE pool: 80% of the lower of what its HCAs
   * carry per node and the table's single-node (NVLink) figure, rounded up to a whole GB/s.
   */
  private static Optional<Double> multiNodeDefault(
      Optional<Integer> ports, Optional<Integer> gbps, Hardware hw) {
    if (ports.isEmpty() || gbps.isEmpty()) {
      return Optional.empty();
    }
    double fabric = ports.get() * gbps.get() / 8.0;
    double ceiling = hw.allReduce().map(b -> Math.min(fabric, b.ringGbps())).orElse(fabric);
    return Optional.of(Math.ceil(PoolPlan.DEFAULT_MULTI_NODE_FRACTION * ceiling));
  }

  /**
   * The /etc/nccl.conf a host of {@code pool} holds: the spec's variables plus, where the pool pins
   * it, {@code NCCL_SOCKET_IFNAME==<bootstrap interface>} (the spec's interface, else {@code
   * hostInterface}, the one play 04 found on that host), sorted by name.
   */
  public String ncclConf(PoolPlan pool, String hostInterface) {
    StringBuilder out = new StringBuilder();
    ncclEnv(pool, hostInterface)
        .forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
    return out.toString();
  }

  /** The variables of {@link #ncclConf(PoolPlan, String)}, sorted by name. */
  public java.util.SortedMap<String, String> ncclEnv(PoolPlan pool, String hostInterface) {
    TreeMap<String, String> env = new TreeMap<>(spec.nccl().env());
    if (pool.pinSocketIfname()) {
      env.put("NCCL_SOCKET_IFNAME", "=" + pool.pool().bootstrapInterface().orElse(hostInterface));
    }
    return env;
  }

  /** Whether some pool's fabric is InfiniBand or RoCE. */
  public boolean verbsPools() {
    return pools.stream().anyMatch(PoolPlan::verbs);
  }

  /**
   * Whether play 03 deploys the RDMA shared device plugin: a Kubernetes cluster with InfiniBand or
   * RoCE pools whose chart values play 03 installs (with GitOps, ArgoCD owns the cluster side).
   */
  public boolean rdmaDevicePlugin() {
    return verbsPools() && spec.kubernetes().isPresent() && spec.gitops().isEmpty();
  }

  private static String kernelModules(
      ClusterSpec.Software sw, Optional<GpuModel> gpu, CompatTable table) {
    if (sw.kernelModules() != KernelModules.AUTO) {
      return sw.kernelModules().spelling();
    }
    KernelModule flavour =
        gpu.map(
                g ->
                    switch (g.kernelModules()) {
                      case OPEN_ONLY -> KernelModule.OPEN;
                      case PROPRIETARY_ONLY -> KernelModule.PROPRIETARY;
                      case OPEN_OR_PROPRIETARY ->
                          table.defaultKernelModule(Version.parse(sw.driver()));
                    })
            .orElseGet(() -> table.defaultKernelModule(Version.parse(sw.driver())));
    return flavour.name().toLowerCase(Locale.ROOT);
  }
}
