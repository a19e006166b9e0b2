package dev.gpugen.spec;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A fully resolved gpugen/v1 cluster spec: defaults filled in, the {@code --env} overlay applied,
 * each pool's software merged over the cluster's. Immutable; positions live in {@link SourceMap}.
 *
 * @param metadata cluster identity
 * @param cloud provider and location
 * @param network network layout
 * @param mirrors the mirrors the nodes install from instead of the public upstreams
 * @param storage shared storage
 * @param pools node pools, in spec order
 * @param software cluster-wide software (each pool carries its own resolved copy)
 * @param kernel kernel settings
 * @param nccl NCCL environment
 * @param kubernetes the Kubernetes cluster the GPU nodes join, when the spec names one
 * @param gitops the GitOps hand-off, when the spec turns it on
 * @param validation cluster-wide validation thresholds (each pool carries its own resolved copy)
 * @param ansible Ansible settings
 * @param connection how Ansible reaches the nodes (the controller's side: not deployed to them)
 * @param terraform Terraform settings (where the state lives)
 * @param lint linter settings
 * @param environments the names of the overlays the spec declares, sorted
 * @param selectedEnvironment the overlay applied, if any
 */
public record ClusterSpec(
    Metadata metadata,
    Cloud cloud,
    Network network,
    Mirrors mirrors,
    Storage storage,
    List<Pool> pools,
    SystemPool systemPool,
    Software software,
    Kernel kernel,
    Nccl nccl,
    Optional<Kubernetes> kubernetes,
    Optional<GitOps> gitops,
    Validation validation,
    Ansible ansible,
    Connection connection,
    Terraform terraform,
    Lint lint,
    List<String> environments,
    Optional<String> selectedEnvironment) {

  public ClusterSpec {
    Objects.requireNonNull(metadata);
    Objects.requireNonNull(cloud);
    Objects.requireNonNull(network);
    Objects.requireNonNull(mirrors);
    Objects.requireNonNull(storage);
    pools = List.copyOf(pools);
    Objects.requireNonNull(systemPool);
    Objects.requireNonNull(software);
    Objects.requireNonNull(kernel);
    Objects.requireNonNull(nccl);
    Objects.requireNonNull(kubernetes);
    Objects.requireNonNull(gitops);
    Objects.requireNonNull(validation);
    Objects.requireNonNull(ansible);
    Objects.requireNonNull(connection);
    Objects.requireNonNull(terraform);
    Objects.requireNonNull(lint);
    environments = List.copyOf(environments);
    Objects.requireNonNull(selectedEnvironment);
  }

  /** The default output folder: {@code roles-generated/NAME}, or {@code NAME-ENV} with --env. */
  public String outputFolder() {
    return outputFolder(metadata.name(), selectedEnvironment);
  }

  /** {@link #outputFolder()} before the model exists (the spec mapper's defaults need it). */
  public static String outputFolder(String name, Optional<String> environment) {
    return "roles-generated/" + name + environment.map(e -> "-" + e).orElse("");
  }

  /** Cluster identity. */
  public record Metadata(String name, Optional<String> environment) {
    public Metadata {
      Objects.requireNonNull(name);
      Objects.requireNonNull(environment);
    }
  }

  /**
   * Where the nodes run.
   *
   * @param provider aws, gcp or static
   * @param image an OS name (ubuntu-22.04) or an AMI id
   * @param imds the instance metadata service settings
   */
  public record Cloud(
      Provider provider,
      Optional<String> region,
      Optional<String> availabilityZone,
      Optional<String> sshKeyName,
      String image,
      Imds imds,
      Optional<String> project,
      Optional<Gke> gke) {
    public Cloud {
      Objects.requireNonNull(project);
      Objects.requireNonNull(gke);
      Objects.requireNonNull(provider);
      Objects.requireNonNull(region);
      Objects.requireNonNull(availabilityZone);
      Objects.requireNonNull(sshKeyName);
      Objects.requireNonNull(image);
      Objects.requireNonNull(imds);
    }
  }

  /**
   * GKE settings.
   *
   * @param cluster the cluster's name
   * @param create whether Terraform creates the cluster
   * @param gpuDriver operator (GKE's install disabled, the GPU Operator installs the driver) or gke
   * @param gpuDriverVersion with gpuDriver gke, GKE's default or latest driver of the node image
   */
  public record Gke(
      String cluster,
      boolean create,
      GpuDriver gpuDriver,
      GkeDriverVersion gpuDriverVersion,
      ReleaseChannel releaseChannel,
      String version,
      Optional<String> holdUpgradesUntil,
      List<String> authorizedNetworks,
      boolean privateEndpoint) {
    public Gke {
      Objects.requireNonNull(cluster);
      Objects.requireNonNull(gpuDriver);
      Objects.requireNonNull(gpuDriverVersion);
      Objects.requireNonNull(releaseChannel);
      Objects.requireNonNull(version);
      Objects.requireNonNull(holdUpgradesUntil);
      authorizedNetworks = List.copyOf(authorizedNetworks);
    }

    public boolean operatorDriver() {
      return gpuDriver == GpuDriver.OPERATOR;
    }

    /** The minor version of {@link #version}: {@code 1.35} of {@code 1.35.2-gke.1962000}. */
    public String minorVersion() {
      String[] parts = version.split("[.]");
      return parts[0] + "." + parts[1];
    }
  }

  /**
   * A small untainted CPU node pool for what is not a GPU workload (kube-system, controllers, the
   * GPU Operator's own Deployment), so those never land on GPU nodes (Spot ones are reclaimed, and
   * they keep a pool from scaling to zero).
   *
   * <p>Written as {@code kubernetes.systemPool}, one key for GKE and EKS.
   *
   * @param enabled whether it is rendered (GKE, EKS); default: on GCP, and elsewhere when every GPU
   *     pool is tainted, so that some node accepts pods that tolerate no GPU taint
   * @param instanceType the machine or instance type; default per provider (none for static hosts)
   * @param count its number of nodes (GKE with autoscaling: the initial count)
   * @param autoscaling GKE: the cluster autoscaler's bounds for it
   * @param diskSizeGb the boot disk (GKE) or root volume (EKS) in GB
   */
  public record SystemPool(
      boolean enabled,
      Optional<String> instanceType,
      int count,
      Optional<Autoscaling> autoscaling,
      int diskSizeGb) {
    public SystemPool {
      Objects.requireNonNull(instanceType);
      Objects.requireNonNull(autoscaling);
    }
  }

  /** GKE cluster autoscaler bounds. */
  public record Autoscaling(int min, int max) {}

  /**
   * EC2 instance metadata service settings.
   *
   * @param httpTokens required (IMDSv2 only) or optional (IMDSv1 allowed)
   * @param hopLimit the PUT response hop limit
   */
  public record Imds(HttpTokens httpTokens, int hopLimit) {
    public Imds {
      Objects.requireNonNull(httpTokens);
    }

    public boolean v1Allowed() {
      return httpTokens != HttpTokens.REQUIRED;
    }
  }

  /**
   * Network layout. Either a new VPC ({@code vpcCidr}, {@code subnetCidr}) or an existing one
   * ({@code vpcId}, {@code subnetId}).
   *
   * @param fabric efa, infiniband, roce or tcp as written; when not written, efa if every pool's
   *     EC2 type has EFA, else tcp (each pool's own fabric is {@link Pool#fabric()})
   * @param internet the nodes' way out: nat (a NAT gateway in a VPC gpugen creates), none
   *     (air-gapped) or existing (the routes of the user's VPC); nat by default for a new VPC,
   *     existing for vpcId
   */
  public record Network(
      Optional<String> vpcCidr,
      Optional<String> subnetCidr,
      Optional<String> vpcId,
      Optional<String> subnetId,
      List<String> sshIngressCidrs,
      Placement placement,
      Fabric fabric,
      Internet internet) {
    public Network {
      Objects.requireNonNull(vpcCidr);
      Objects.requireNonNull(subnetCidr);
      Objects.requireNonNull(vpcId);
      Objects.requireNonNull(subnetId);
      sshIngressCidrs = List.copyOf(sshIngressCidrs);
      Objects.requireNonNull(placement);
      Objects.requireNonNull(fabric);
      Objects.requireNonNull(internet);
    }

    /** Whether gpugen creates the VPC (no vpcId). */
    public boolean createsVpc() {
      return vpcId.isEmpty();
    }

    /** Whether Terraform creates a NAT gateway and the nodes' default route through it. */
    public boolean natGateway() {
      return createsVpc() && internet == Internet.NAT;
    }
  }

  /**
   * Mirrors of the public sources the node plays install from ({@code mirrors:}), each as written
   * (the plan's {@code Sources} normalises them). Empty: the public upstream.
   *
   * @param ubuntu Ubuntu's archive
   * @param cuda NVIDIA's CUDA repositories
   * @param nvidiaContainerToolkit the NVIDIA Container Toolkit repository
   * @param kubernetes pkgs.k8s.io
   * @param lustre AWS's FSx Lustre client repository
   * @param files single files (installer tarballs, a signing key) under their upstream names
   * @param git a Git server holding the validation tools' repositories
   * @param helmGpuOperator NVIDIA's Helm repository
   * @param helmEksCharts AWS's eks-charts Helm repository
   * @param helmCilium Cilium's Helm repository
   * @param helmTigera Calico's (Tigera's) Helm repository
   * @param registries container registry mirrors, by registry host
   */
  public record Mirrors(
      Optional<String> ubuntu,
      Optional<String> cuda,
      Optional<String> nvidiaContainerToolkit,
      Optional<String> kubernetes,
      Optional<String> lustre,
      Optional<String> files,
      Optional<String> git,
      Optional<String> helmGpuOperator,
      Optional<String> helmEksCharts,
      Optional<String> helmCilium,
      Optional<String> helmTigera,
      SortedMap<String, String> registries) {
    public Mirrors {
      Objects.requireNonNull(helmGpuOperator);
      Objects.requireNonNull(helmEksCharts);
      Objects.requireNonNull(helmCilium);
      Objects.requireNonNull(helmTigera);
      registries = Maps.sorted(registries);
      Objects.requireNonNull(ubuntu);
      Objects.requireNonNull(cuda);
      Objects.requireNonNull(nvidiaContainerToolkit);
      Objects.requireNonNull(kubernetes);
      Objects.requireNonNull(lustre);
      Objects.requireNonNull(files);
      Objects.requireNonNull(git);
    }
  }

  /**
   * Shared storage.
   *
   * @param retain whether Terraform refuses to delete or replace the FSx for Lustre file system and
   *     the checkpoint bucket (prevent_destroy); false lets a spec edit or {@code gpugen down
   *     --delete-data} delete them
   */
  public record Storage(
      Optional<Lustre> lustre, Optional<String> checkpointBucket, boolean retain) {
    public Storage {
      Objects.requireNonNull(lustre);
      Objects.requireNonNull(checkpointBucket);
    }
  }

  /** FSx for Lustre. */
  public record Lustre(
      int capacityGiB,
      String deploymentType,
      Optional<Integer> perUnitStorageThroughput,
      String mountPoint) {
    public Lustre {
      Objects.requireNonNull(deploymentType);
      Objects.requireNonNull(perUnitStorageThroughput);
      Objects.requireNonNull(mountPoint);
    }
  }

  /**
   * A node pool with its software resolved.
   *
   * @param instanceType the EC2 instance type or GCP machine type; empty for static pools
   * @param market the purchase option: on-demand, spot or capacity-block
   * @param capacityReservationId the Capacity Reservation the nodes launch into: a Capacity
   *     Block's, or a targeted On-Demand Capacity Reservation's
   * @param reservation the Compute Engine reservation a GKE pool's nodes consume (a name, or
   *     projects/PROJECT/reservations/NAME for one shared from another project)
   * @param localNvme what to make of the instance-store NVMe volumes; empty leaves them alone
   * @param gpu the GPUs of a static pool's hosts
   * @param hosts a static pool's hosts
   * @param fabric the interconnect of the pool's nodes: pools[].fabric, else network.fabric where
   *     written, else efa where the pool's EC2 type has EFA and tcp elsewhere
   * @param bootstrapInterface the host interface NCCL's bootstrap (NCCL_SOCKET_IFNAME) and Open
   *     MPI's TCP traffic use; empty: the interface holding the host's address, found on the host
   * @param rdma what the InfiniBand or RoCE HCAs of the pool's hosts must show
   * @param tuning optional host tuning (CPU governor, hugepages, GPU application clocks)
   * @param renamedFrom the pool's name before a rename (aws): its nodes, launch template and
   *     placement group move to the new name in Terraform's state instead of being replaced
   * @param retire node keys never to use (aws): each names a node to remove; count is the number of
   *     nodes, keyed by the lowest keys not retired
   */
  public record Pool(
      String name,
      String instanceType,
      int count,
      Market market,
      Optional<String> capacityReservationId,
      Optional<String> reservation,
      RootVolume rootVolume,
      Optional<LocalNvme> localNvme,
      SortedMap<String, String> labels,
      List<Taint> taints,
      Software software,
      Validation validation,
      Optional<StaticGpu> gpu,
      List<Host> hosts,
      Optional<Autoscaling> autoscaling,
      Fabric fabric,
      Optional<String> bootstrapInterface,
      Rdma rdma,
      Tuning tuning,
      Optional<String> renamedFrom,
      List<Integer> retire) {
    public Pool {
      Objects.requireNonNull(renamedFrom);
      retire = List.copyOf(retire);
      Objects.requireNonNull(fabric);
      Objects.requireNonNull(bootstrapInterface);
      Objects.requireNonNull(rdma);
      Objects.requireNonNull(tuning);
      Objects.requireNonNull(name);
      Objects.requireNonNull(instanceType);
      Objects.requireNonNull(market);
      Objects.requireNonNull(capacityReservationId);
      Objects.requireNonNull(reservation);
      Objects.requireNonNull(rootVolume);
      Objects.requireNonNull(localNvme);
      labels = Maps.sorted(labels);
      taints = List.copyOf(taints);
      Objects.requireNonNull(software);
      Objects.requireNonNull(validation);
      Objects.requireNonNull(gpu);
      hosts = List.copyOf(hosts);
      Objects.requireNonNull(autoscaling);
    }

    public boolean spot() {
      return market == Market.SPOT;
    }

    /** Whether the nodes run in an EC2 Capacity Block for ML. */
    public boolean capacityBlock() {
      return market == Market.CAPACITY_BLOCK;
    }
  }

  /**
   * The instance-store NVMe volumes of a pool's nodes, made one RAID 0 array at every boot.
   *
   * @param raid0 whether to build the array (false leaves the volumes alone)
   * @param mount where the array is mounted
   * @param containerd whether containerd keeps its images and containers there (its root)
   */
  public record LocalNvme(boolean raid0, String mount, boolean containerd) {
    public LocalNvme {
      Objects.requireNonNull(mount);
    }
  }

  /**
   * What the InfiniBand or RoCE HCAs of a pool's hosts must show (pools[].rdma).
   *
   * @param hcaPorts HCA ports NCCL uses per host (empty: the GPU's reference system's, where known)
   * @param linkGbps the rate each of those ports runs at, Gb/s (empty: likewise)
   * @param preflight check the HCAs, PCIe ACS and the IOMMU on every host before play 00 installs
   *     anything
   */
  public record Rdma(Optional<Integer> hcaPorts, Optional<Integer> linkGbps, boolean preflight) {
    public Rdma {
      Objects.requireNonNull(hcaPorts);
      Objects.requireNonNull(linkGbps);
    }
  }

  /**
   * Optional host tuning of a pool (pools[].tuning); each setting only where written.
   *
   * @param cpuGovernor the cpufreq scaling governor every CPU gets at boot
   * @param hugepages 2 MiB huge pages reserved at boot (vm.nr_hugepages)
   * @param gpuClocks GPU application clocks set at boot (nvidia-smi --applications-clocks)
   */
  public record Tuning(
      Optional<String> cpuGovernor, Optional<Integer> hugepages, Optional<GpuClocks> gpuClocks) {
    public Tuning {
      Objects.requireNonNull(cpuGovernor);
      Objects.requireNonNull(hugepages);
      Objects.requireNonNull(gpuClocks);
    }

    public boolean any() {
      return cpuGovernor.isPresent() || hugepages.isPresent() || gpuClocks.isPresent();
    }
  }

  /**
   * GPU application clocks, MHz, as nvidia-smi --applications-clocks=MEMORY,GRAPHICS takes them.
   */
  public record GpuClocks(int memoryMHz, int graphicsMHz) {}

  /**
   * The GPUs of a static pool's hosts.
   *
   * @param model as written (h100); the compatibility table resolves aliases and case
   * @param nvswitch as written; empty means implied by the model name where it says the board (an
   *     SXM/HGX model at eight GPUs), else none
   */
  public record StaticGpu(String model, int count, Optional<Boolean> nvswitch) {
    public StaticGpu {
      Objects.requireNonNull(model);
      Objects.requireNonNull(nvswitch);
    }
  }

  /**
   * A static host.
   *
   * @param address where Ansible connects
   * @param vars extra host variables
   */
  public record Host(String name, String address, SortedMap<String, String> vars) {
    public Host {
      Objects.requireNonNull(name);
      Objects.requireNonNull(address);
      vars = Maps.sorted(vars);
    }
  }

  /** The root EBS volume; encrypted unless the spec says otherwise (a security error). */
  public record RootVolume(
      String type,
      int sizeGiB,
      Optional<Integer> iops,
      Optional<Integer> throughput,
      boolean encrypted) {
    public RootVolume {
      Objects.requireNonNull(type);
      Objects.requireNonNull(iops);
      Objects.requireNonNull(throughput);
    }
  }

  /** A Kubernetes node taint. */
  public record Taint(String key, Optional<String> value, String effect) {
    public Taint {
      Objects.requireNonNull(key);
      Objects.requireNonNull(value);
      Objects.requireNonNull(effect);
    }
  }

  /**
   * GPU software versions, as strings exactly as written (compared as versions by the linter).
   *
   * @param kernelModules auto, open or proprietary
   * @param docaOfed the DOCA-OFED release play 00 installs before the driver; empty: the
   *     distribution's rdma-core
   */
  public record Software(
      String os,
      String driver,
      String cuda,
      String containerToolkit,
      KernelModules kernelModules,
      GpuOperator gpuOperator,
      DevicePlugin devicePlugin,
      Optional<String> docaOfed) {
    public Software {
      Objects.requireNonNull(docaOfed);
      Objects.requireNonNull(os);
      Objects.requireNonNull(driver);
      Objects.requireNonNull(cuda);
      Objects.requireNonNull(containerToolkit);
      Objects.requireNonNull(kernelModules);
      Objects.requireNonNull(gpuOperator);
      Objects.requireNonNull(devicePlugin);
    }
  }

  /** NVIDIA GPU Operator chart settings. */
  public record GpuOperator(String version, boolean dcgmExporter, boolean migManager) {
    public GpuOperator {
      Objects.requireNonNull(version);
    }
  }

  /** Kubernetes device plugin settings. */
  public record DevicePlugin(int timeSlicingReplicas) {}

  /** Kernel settings. */
  public record Kernel(boolean blacklistNouveau, SortedMap<String, String> sysctl) {
    public Kernel {
      sysctl = Maps.sorted(sysctl);
    }
  }

  /** NCCL environment variables. */
  public record Nccl(SortedMap<String, String> env) {
    public Nccl {
      env = Maps.sorted(env);
    }
  }

  /**
   * Validation thresholds for play 05.
   *
   * @param minBusBandwidthGBps the single-node all-reduce bus bandwidth a node must reach; empty:
   *     reported, not judged
   * @param minBytes the smallest all-reduce message (nccl-tests size: 8, 1M, ...)
   * @param maxBytes the largest all-reduce message (nccl-tests size: 8G, 512M, ...)
   * @param outlierPercent how far below its pool's median (bus bandwidth, gpu-burn throughput) a
   *     node is flagged
   * @param outlierFails an outlier fails validation instead of warning
   * @param gateScheduling with kubernetes:, a node that never passed play 05 carries the pending
   *     taint
   * @param minMultiNodeBusBandwidthGBps the all-reduce bus bandwidth across the nodes the
   *     multi-node run must reach; empty: the pool's default where gpugen has one
   */
  public record Validation(
      int gpuBurnSeconds,
      int dcgmDiagLevel,
      Optional<Double> minBusBandwidthGBps,
      String minBytes,
      String maxBytes,
      double outlierPercent,
      boolean outlierFails,
      boolean gateScheduling,
      Optional<Double> minMultiNodeBusBandwidthGBps) {
    public Validation {
      Objects.requireNonNull(minMultiNodeBusBandwidthGBps);
      Objects.requireNonNull(minBusBandwidthGBps);
      Objects.requireNonNull(minBytes);
      Objects.requireNonNull(maxBytes);
    }
  }

  /**
   * The Kubernetes cluster the GPU nodes become workers of.
   *
   * @param distribution eks (AWS creates the control plane), kubeadm (Ansible bootstraps it) or
   *     existing (a cluster the kubeconfig names)
   * @param version the Kubernetes minor, e.g. 1.33
   * @param endpointAccess eks: private or public-and-private
   * @param publicCidrs eks: who may reach a public endpoint
   * @param apiIngressCidrs eks and kubeadm on aws: who besides the nodes may reach the API server's
   *     private endpoint (the controller, the bastion)
   * @param admins eks: IAM principal ARNs given cluster-admin through access entries
   * @param controlPlaneHosts kubeadm: the control-plane hosts, the first one runs kubeadm init
   * @param controlPlaneEndpoint kubeadm: the load balancer or DNS name (HOST:PORT) in front of the
   *     API servers, if the spec gives one (static)
   * @param controlPlaneInstanceType kubeadm on aws: the control-plane instances' EC2 type
   * @param controlPlaneCount kubeadm on aws: how many control-plane instances (1 or 3)
   * @param cni kubeadm: cilium or calico
   */
  public record Kubernetes(
      Distribution distribution,
      String version,
      EndpointAccess endpointAccess,
      List<String> publicCidrs,
      List<String> apiIngressCidrs,
      List<String> admins,
      List<Host> controlPlaneHosts,
      Optional<String> controlPlaneEndpoint,
      String controlPlaneInstanceType,
      int controlPlaneCount,
      Cni cni) {
    public Kubernetes {
      Objects.requireNonNull(distribution);
      Objects.requireNonNull(version);
      Objects.requireNonNull(endpointAccess);
      publicCidrs = List.copyOf(publicCidrs);
      apiIngressCidrs = List.copyOf(apiIngressCidrs);
      admins = List.copyOf(admins);
      controlPlaneHosts = List.copyOf(controlPlaneHosts);
      Objects.requireNonNull(controlPlaneEndpoint);
      Objects.requireNonNull(controlPlaneInstanceType);
      Objects.requireNonNull(cni);
    }

    public boolean eks() {
      return distribution == Distribution.EKS;
    }

    public boolean kubeadm() {
      return distribution == Distribution.KUBEADM;
    }

    public boolean existing() {
      return distribution == Distribution.EXISTING;
    }

    public boolean publicEndpoint() {
      return endpointAccess == EndpointAccess.PUBLIC_AND_PRIVATE;
    }
  }

  /**
   * The GitOps hand-off: ArgoCD owns the cluster-side components.
   *
   * @param argocd where ArgoCD reads the rendered Applications and manifests from
   */
  public record GitOps(ArgoCd argocd) {
    public GitOps {
      Objects.requireNonNull(argocd);
    }
  }

  /**
   * ArgoCD settings.
   *
   * @param repoUrl the Git repository holding the rendered argocd/ folder
   * @param targetRevision the branch, tag or commit ArgoCD syncs
   * @param path the argocd/ folder's path in that repository
   * @param namespace ArgoCD's namespace, where the Applications live
   * @param project the ArgoCD project
   * @param server the destination cluster's API server
   * @param automated automated sync with prune and selfHeal
   */
  public record ArgoCd(
      String repoUrl,
      String targetRevision,
      String path,
      String namespace,
      String project,
      String server,
      boolean automated) {
    public ArgoCd {
      Objects.requireNonNull(repoUrl);
      Objects.requireNonNull(targetRevision);
      Objects.requireNonNull(path);
      Objects.requireNonNull(namespace);
      Objects.requireNonNull(project);
      Objects.requireNonNull(server);
    }
  }

  /**
   * Ansible settings.
   *
   * @param forks parallel hosts of a push run
   * @param mode push (a controller configures the nodes) or pull (each node configures itself at
   *     boot)
   * @param pull where pulling nodes fetch the rendered bundle
   */
  public record Ansible(int forks, AnsibleMode mode, Pull pull) {
    public Ansible {
      Objects.requireNonNull(mode);
      Objects.requireNonNull(pull);
    }

    /** Push mode with the default pull settings: what a spec without {@code ansible.mode} says. */
    public Ansible(int forks) {
      this(
          forks,
          AnsibleMode.PUSH,
          new Pull(PullSource.S3, Optional.empty(), Optional.empty(), Optional.empty()));
    }

    public boolean pullMode() {
      return mode == AnsibleMode.PULL;
    }
  }

  /**
   * Pull mode's bundle source.
   *
   * @param source s3 (the checkpoint bucket) or git
   * @param gitUrl the repository (git)
   * @param gitRef the tag or commit (git)
   * @param gitPath the rendered ansible/ folder in the repository, when the spec sets it
   */
  public record Pull(
      PullSource source,
      Optional<String> gitUrl,
      Optional<String> gitRef,
      Optional<String> gitPath) {
    public Pull {
      Objects.requireNonNull(source);
      Objects.requireNonNull(gitUrl);
      Objects.requireNonNull(gitRef);
      Objects.requireNonNull(gitPath);
    }
  }

  /**
   * How Ansible reaches the nodes ({@code ansible.connection}, {@code ansible.bastion}).
   *
   * @param method ssm (AWS Systems Manager Session Manager, the community.aws.aws_ssm connection)
   *     or ssh; ssm by default when no CIDR may reach SSH, else ssh
   * @param bastion an SSH jump host every node is reached through (ssh only)
   */
  public record Connection(ConnectionMethod method, Optional<Bastion> bastion) {
    public Connection {
      Objects.requireNonNull(method);
      Objects.requireNonNull(bastion);
    }

    public boolean ssm() {
      return method == ConnectionMethod.SSM;
    }
  }

  /** An SSH jump host: {@code ssh -J user@host:port}. */
  public record Bastion(String host, String user, int port) {
    public Bastion {
      Objects.requireNonNull(host);
      Objects.requireNonNull(user);
    }

    /** The ProxyJump destination, {@code user@host} plus {@code :port} when not 22. */
    public String proxyJump() {
      return user + "@" + host + (port == 22 ? "" : ":" + port);
    }
  }

  /** Terraform settings: the state backend, when the spec names one (else local state). */
  public record Terraform(Optional<S3Backend> s3Backend) {
    public Terraform {
      Objects.requireNonNull(s3Backend);
    }
  }

  /**
   * Terraform state in S3 with S3-native locking.
   *
   * @param region the bucket's region (default: cloud.region)
   */
  public record S3Backend(String bucket, String key, String region) {
    public S3Backend {
      Objects.requireNonNull(bucket);
      Objects.requireNonNull(key);
      Objects.requireNonNull(region);
    }
  }

  /** Linter settings from the spec. */
  public record Lint(
      List<String> skip, SortedMap<String, String> severity, SortedMap<String, String> reasons) {
    public Lint {
      skip = List.copyOf(skip);
      severity = Maps.sorted(severity);
      reasons = Maps.sorted(reasons);
    }

    public Lint(List<String> skip, SortedMap<String, String> severity) {
      this(skip, severity, new java.util.TreeMap<>());
    }
  }
}
