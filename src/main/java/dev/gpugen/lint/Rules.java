package dev.gpugen.lint;

import dev.gpugen.lint.rules.aws.AwsArmInstanceUnsupported;
import dev.gpugen.lint.rules.aws.AwsCapacityBlockEnds;
import dev.gpugen.lint.rules.aws.AwsCapacityBlockInstanceType;
import dev.gpugen.lint.rules.aws.AwsCapacityBlockReservationMissing;
import dev.gpugen.lint.rules.aws.AwsEnvSharedBucket;
import dev.gpugen.lint.rules.aws.AwsInstanceTypeInvalid;
import dev.gpugen.lint.rules.aws.AwsInstanceTypeUnknown;
import dev.gpugen.lint.rules.aws.AwsLocalNvmeNoInstanceStore;
import dev.gpugen.lint.rules.aws.AwsSpotWithReservation;
import dev.gpugen.lint.rules.aws.AwsSpotWithoutCheckpoints;
import dev.gpugen.lint.rules.aws.AwsVcpuQuota;
import dev.gpugen.lint.rules.compat.CompatUnknown;
import dev.gpugen.lint.rules.conn.ConnBastionWithSsm;
import dev.gpugen.lint.rules.conn.ConnSettingIgnored;
import dev.gpugen.lint.rules.conn.ConnSshKeyMissing;
import dev.gpugen.lint.rules.conn.ConnSshUnreachable;
import dev.gpugen.lint.rules.ctk.CtkKnownIssue;
import dev.gpugen.lint.rules.ctk.CtkVulnerableVersion;
import dev.gpugen.lint.rules.drv.DrvBranchEndOfLife;
import dev.gpugen.lint.rules.drv.DrvCudaBelowCompatFloor;
import dev.gpugen.lint.rules.drv.DrvCudaNeedsNewerDriver;
import dev.gpugen.lint.rules.drv.DrvCudaUnknownRelease;
import dev.gpugen.lint.rules.drv.DrvGpuNeedsNewerCuda;
import dev.gpugen.lint.rules.drv.DrvGpuNeedsNewerDriver;
import dev.gpugen.lint.rules.drv.DrvGpuSupportEnded;
import dev.gpugen.lint.rules.drv.DrvKernelModulesUnsupported;
import dev.gpugen.lint.rules.drv.DrvNewFeatureBranch;
import dev.gpugen.lint.rules.drv.DrvNvswitchAmbiguous;
import dev.gpugen.lint.rules.drv.DrvOperatorGpuDriverFloor;
import dev.gpugen.lint.rules.efa.EfaDevicePluginUnscheduled;
import dev.gpugen.lint.rules.efa.EfaInstanceNeedsNewerCuda;
import dev.gpugen.lint.rules.efa.EfaNotUsed;
import dev.gpugen.lint.rules.efa.EfaObsoleteVariable;
import dev.gpugen.lint.rules.efa.EfaPlacementNotCluster;
import dev.gpugen.lint.rules.efa.EfaSocketTuningIgnored;
import dev.gpugen.lint.rules.efa.EfaUnsupportedInstance;
import dev.gpugen.lint.rules.eks.EksPublicEndpointOpen;
import dev.gpugen.lint.rules.fsx.FsxCapacityInvalid;
import dev.gpugen.lint.rules.fsx.FsxLustreNotCreated;
import dev.gpugen.lint.rules.fsx.FsxThroughputInvalid;
import dev.gpugen.lint.rules.gcp.GcpA3WithoutGpudirect;
import dev.gpugen.lint.rules.gcp.GcpCapacityInvalid;
import dev.gpugen.lint.rules.gcp.GcpDriverFromGke;
import dev.gpugen.lint.rules.gcp.GcpEndpointOpen;
import dev.gpugen.lint.rules.gcp.GcpGkeDriverUnverified;
import dev.gpugen.lint.rules.gcp.GcpGkeVersionUnknown;
import dev.gpugen.lint.rules.gcp.GcpInternetNone;
import dev.gpugen.lint.rules.gcp.GcpMachineTypeUnknown;
import dev.gpugen.lint.rules.gcp.GcpPrivateEndpointUnreachable;
import dev.gpugen.lint.rules.gcp.GcpSystemPoolOff;
import dev.gpugen.lint.rules.gitops.GitopsRepoCredentials;
import dev.gpugen.lint.rules.gitops.GitopsUnpinnedRevision;
import dev.gpugen.lint.rules.gop.GopDriverKnownIssue;
import dev.gpugen.lint.rules.gop.GopGkeToolkitTooOld;
import dev.gpugen.lint.rules.k8s.K8sAddonVersionUnknown;
import dev.gpugen.lint.rules.k8s.K8sApiUnreachable;
import dev.gpugen.lint.rules.k8s.K8sControlPlaneEndpointMissing;
import dev.gpugen.lint.rules.k8s.K8sControlPlaneEven;
import dev.gpugen.lint.rules.k8s.K8sDistributionProvider;
import dev.gpugen.lint.rules.k8s.K8sLabelReserved;
import dev.gpugen.lint.rules.k8s.K8sNetworkOverlap;
import dev.gpugen.lint.rules.k8s.K8sNotConfigured;
import dev.gpugen.lint.rules.k8s.K8sOperatorUnvalidated;
import dev.gpugen.lint.rules.k8s.K8sRdmaHostOnly;
import dev.gpugen.lint.rules.k8s.K8sSettingIgnored;
import dev.gpugen.lint.rules.k8s.K8sSystemPoolOff;
import dev.gpugen.lint.rules.k8s.K8sVersionUnsupported;
import dev.gpugen.lint.rules.krn.KrnNouveauNotBlacklisted;
import dev.gpugen.lint.rules.nccl.NcclAlgoProtoForced;
import dev.gpugen.lint.rules.nccl.NcclBuffsizeNotPowerOfTwo;
import dev.gpugen.lint.rules.nccl.NcclDebugVerbose;
import dev.gpugen.lint.rules.nccl.NcclGdrLevelInteger;
import dev.gpugen.lint.rules.nccl.NcclGdrLevelInvalid;
import dev.gpugen.lint.rules.nccl.NcclIbDisabledOnRdmaFabric;
import dev.gpugen.lint.rules.nccl.NcclIbHcaPrefixMatch;
import dev.gpugen.lint.rules.nccl.NcclNetSocketOnRdmaFabric;
import dev.gpugen.lint.rules.nccl.NcclNetUnknown;
import dev.gpugen.lint.rules.nccl.NcclP2pDisabledOnNvlink;
import dev.gpugen.lint.rules.nccl.NcclSocketIfnameHardcoded;
import dev.gpugen.lint.rules.nccl.NcclSocketThreadsOutOfRange;
import dev.gpugen.lint.rules.nccl.NcclValueInvalid;
import dev.gpugen.lint.rules.net.NetAirGappedNoMirror;
import dev.gpugen.lint.rules.net.NetAirGappedNoSource;
import dev.gpugen.lint.rules.net.NetAirGappedStockImage;
import dev.gpugen.lint.rules.net.NetCidrSpecialRange;
import dev.gpugen.lint.rules.net.NetFabricNotOffered;
import dev.gpugen.lint.rules.net.NetInternetMismatch;
import dev.gpugen.lint.rules.net.NetMirrorUnused;
import dev.gpugen.lint.rules.net.NetSubnetNoRoom;
import dev.gpugen.lint.rules.net.NetSubnetTooSmall;
import dev.gpugen.lint.rules.net.NetVpcCidrSize;
import dev.gpugen.lint.rules.pull.PullGitSource;
import dev.gpugen.lint.rules.pull.PullNeedsBucket;
import dev.gpugen.lint.rules.pull.PullUnpinnedRef;
import dev.gpugen.lint.rules.pull.PullUnsupportedProvider;
import dev.gpugen.lint.rules.rdma.RdmaSettingIgnored;
import dev.gpugen.lint.rules.sec.SecApiOpenToWorld;
import dev.gpugen.lint.rules.sec.SecImdsv1Enabled;
import dev.gpugen.lint.rules.sec.SecMirrorKeyOverHttp;
import dev.gpugen.lint.rules.sec.SecSecretInSpec;
import dev.gpugen.lint.rules.sec.SecSshOpenToWorld;
import dev.gpugen.lint.rules.sec.SecUnencryptedStorage;
import dev.gpugen.lint.rules.sec.SecUnverifiedMirrorOverHttp;
import dev.gpugen.lint.rules.spec.SpecCidrHostBits;
import dev.gpugen.lint.rules.spec.SpecCloudLocation;
import dev.gpugen.lint.rules.spec.SpecDocumentationAddress;
import dev.gpugen.lint.rules.spec.SpecDuplicatePool;
import dev.gpugen.lint.rules.spec.SpecLintSettings;
import dev.gpugen.lint.rules.spec.SpecNetworkSource;
import dev.gpugen.lint.rules.spec.SpecPoolShape;
import dev.gpugen.lint.rules.spec.SpecSettingIgnored;
import dev.gpugen.lint.rules.spec.SpecSubnetOutsideVpc;
import dev.gpugen.lint.rules.sys.SysHugepagesExceedMemory;
import dev.gpugen.lint.rules.sys.SysMaxMapCountLow;
import dev.gpugen.lint.rules.sys.SysNumaBalancingEnabled;
import dev.gpugen.lint.rules.tf.TfBackendIgnored;
import dev.gpugen.lint.rules.tf.TfEnvSharedState;
import dev.gpugen.lint.rules.tf.TfProdLocalState;
import dev.gpugen.lint.rules.val.ValBusbwSingleGpu;
import dev.gpugen.lint.rules.val.ValBusbwThresholdImplausible;
import dev.gpugen.lint.rules.val.ValNcclSizeRangeEmpty;
import dev.gpugen.lint.rules.val.ValNcclTestTooSmall;
import dev.gpugen.lint.rules.val.ValSettingIgnored;
import dev.gpugen.lint.rules.val.ValThresholdInherited;
import java.util.List;
import java.util.Optional;

/**
 * Every rule gpugen runs, listed explicitly (no scanning): adding a rule is one line here.
 *
 * <p>Naming convention (checked by {@code RulesTest}): a rule lives in the package named after the
 * first segment of its id, and its class is the whole id in UpperCamelCase, so {@code
 * nccl-gdr-level-invalid} is {@code dev.gpugen.lint.rules.nccl.NcclGdrLevelInvalid}. Helpers shared
 * by several families ({@code PoolRule}, {@code PoolContext}, {@code Nccl}, {@code Cidr}) stay in
 * {@code dev.gpugen.lint.rules}. The order below is the order of the catalogue in
 * docs/lint-rules.md.
 */
public final class Rules {
  private static final List<Rule> ALL =
      List.of(
          // spec structure and cloud facts
          new SpecDuplicatePool(),
          new SpecLintSettings(),
          new SpecPoolShape(),
          new SpecCloudLocation(),
          new SpecNetworkSource(),
          new SpecCidrHostBits(),
          new SpecDocumentationAddress(),
          new SpecSubnetOutsideVpc(),
          new CompatUnknown(),
          new AwsInstanceTypeInvalid(),
          new AwsInstanceTypeUnknown(),
          new AwsArmInstanceUnsupported(),
          new GcpA3WithoutGpudirect(),
          new GcpGkeVersionUnknown(),
          new GcpCapacityInvalid(),
          new GcpDriverFromGke(),
          new GcpGkeDriverUnverified(),
          // Kubernetes distribution and version
          new K8sNotConfigured(),
          new K8sDistributionProvider(),
          new K8sControlPlaneEndpointMissing(),
          new K8sControlPlaneEven(),
          new K8sSystemPoolOff(),
          new K8sLabelReserved(),
          new K8sNetworkOverlap(),
          new K8sVersionUnsupported(),
          new K8sAddonVersionUnknown(),
          new K8sOperatorUnvalidated(),
          new K8sRdmaHostOnly(),
          new K8sSettingIgnored(),
          new K8sApiUnreachable(),
          new EksPublicEndpointOpen(),
          new GcpEndpointOpen(),
          new GcpSystemPoolOff(),
          new GcpInternetNone(),
          new GcpPrivateEndpointUnreachable(),
          // driver, CUDA and GPU
          new DrvCudaBelowCompatFloor(),
          new DrvCudaNeedsNewerDriver(),
          new DrvCudaUnknownRelease(),
          new DrvGpuNeedsNewerDriver(),
          new DrvGpuNeedsNewerCuda(),
          new DrvGpuSupportEnded(),
          new DrvKernelModulesUnsupported(),
          new DrvBranchEndOfLife(),
          new DrvNewFeatureBranch(),
          new DrvOperatorGpuDriverFloor(),
          new DrvNvswitchAmbiguous(),
          new KrnNouveauNotBlacklisted(),
          // container toolkit and GPU operator
          new CtkVulnerableVersion(),
          new CtkKnownIssue(),
          new GopDriverKnownIssue(),
          new GopGkeToolkitTooOld(),
          // NCCL
          new NcclIbDisabledOnRdmaFabric(),
          new NcclNetSocketOnRdmaFabric(),
          new NcclAlgoProtoForced(),
          new NcclSocketThreadsOutOfRange(),
          new NcclGdrLevelInvalid(),
          new NcclGdrLevelInteger(),
          new NcclValueInvalid(),
          new NcclP2pDisabledOnNvlink(),
          new NcclSocketIfnameHardcoded(),
          new NcclIbHcaPrefixMatch(),
          new NcclNetUnknown(),
          new NcclDebugVerbose(),
          new NcclBuffsizeNotPowerOfTwo(),
          // EFA and fabric
          new NetFabricNotOffered(),
          new NetInternetMismatch(),
          new NetAirGappedNoSource(),
          new NetAirGappedStockImage(),
          new NetAirGappedNoMirror(),
          new NetMirrorUnused(),
          new NetVpcCidrSize(),
          new NetCidrSpecialRange(),
          new NetSubnetTooSmall(),
          new NetSubnetNoRoom(),
          new RdmaSettingIgnored(),
          // How Ansible reaches the nodes; where Terraform keeps its state
          new ConnBastionWithSsm(),
          new ConnSshUnreachable(),
          new ConnSshKeyMissing(),
          new ConnSettingIgnored(),
          new TfBackendIgnored(),
          new TfProdLocalState(),
          new TfEnvSharedState(),
          new EfaUnsupportedInstance(),
          new EfaDevicePluginUnscheduled(),
          new EfaNotUsed(),
          new EfaObsoleteVariable(),
          new EfaSocketTuningIgnored(),
          new EfaPlacementNotCluster(),
          new EfaInstanceNeedsNewerCuda(),
          // AWS, FSx, GCP
          new AwsSpotWithoutCheckpoints(),
          new AwsSpotWithReservation(),
          new AwsCapacityBlockInstanceType(),
          new AwsCapacityBlockReservationMissing(),
          new AwsCapacityBlockEnds(),
          new AwsLocalNvmeNoInstanceStore(),
          new AwsVcpuQuota(),
          new AwsEnvSharedBucket(),
          new PullUnsupportedProvider(),
          new PullUnpinnedRef(),
          new SpecSettingIgnored(),
          new PullNeedsBucket(),
          new PullGitSource(),
          new FsxThroughputInvalid(),
          new FsxCapacityInvalid(),
          new FsxLustreNotCreated(),
          new GcpMachineTypeUnknown(),
          // validation and sysctl
          new ValNcclTestTooSmall(),
          new ValNcclSizeRangeEmpty(),
          new ValBusbwThresholdImplausible(),
          new ValThresholdInherited(),
          new ValBusbwSingleGpu(),
          new ValSettingIgnored(),
          new SysNumaBalancingEnabled(),
          new SysMaxMapCountLow(),
          new SysHugepagesExceedMemory(),
          // security
          new SecSshOpenToWorld(),
          new SecApiOpenToWorld(),
          new SecUnencryptedStorage(),
          new SecImdsv1Enabled(),
          new SecMirrorKeyOverHttp(),
          new SecUnverifiedMirrorOverHttp(),
          new SecSecretInSpec(),
          // GitOps hand-off
          new GitopsRepoCredentials(),
          new GitopsUnpinnedRevision());

  private Rules() {}

  public static List<Rule> all() {
    return ALL;
  }

  public static Optional<Rule> byId(String id) {
    return ALL.stream().filter(r -> r.id().equals(id)).findFirst();
  }
}
