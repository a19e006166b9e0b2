package dev.gpugen.lint;

import dev.gpugen.lint.rules.BranchEndOfLifeRule;
import dev.gpugen.lint.rules.BusBandwidthThresholdRule;
import dev.gpugen.lint.rules.CidrHostBitsRule;
import dev.gpugen.lint.rules.CloudLocationRule;
import dev.gpugen.lint.rules.CompatUnknownRule;
import dev.gpugen.lint.rules.CudaBelowCompatFloorRule;
import dev.gpugen.lint.rules.CudaNeedsNewerDriverRule;
import dev.gpugen.lint.rules.CudaUnknownReleaseRule;
import dev.gpugen.lint.rules.DriverKnownIssueRule;
import dev.gpugen.lint.rules.DuplicatePoolRule;
import dev.gpugen.lint.rules.EfaNeedsNewerCudaRule;
import dev.gpugen.lint.rules.EfaNotUsedRule;
import dev.gpugen.lint.rules.EfaObsoleteVariableRule;
import dev.gpugen.lint.rules.EfaPlacementRule;
import dev.gpugen.lint.rules.EfaSocketTuningRule;
import dev.gpugen.lint.rules.EfaUnsupportedInstanceRule;
import dev.gpugen.lint.rules.EksPublicEndpointRule;
import dev.gpugen.lint.rules.FabricNotOfferedRule;
import dev.gpugen.lint.rules.GcpMachineTypeUnknownRule;
import dev.gpugen.lint.rules.GitOpsRepoCredentialsRule;
import dev.gpugen.lint.rules.GitOpsUnpinnedRevisionRule;
import dev.gpugen.lint.rules.GkeGpuDirectRule;
import dev.gpugen.lint.rules.GpuNeedsNewerCudaRule;
import dev.gpugen.lint.rules.GpuNeedsNewerDriverRule;
import dev.gpugen.lint.rules.GpuSupportEndedRule;
import dev.gpugen.lint.rules.ImdsV1Rule;
import dev.gpugen.lint.rules.KernelModulesUnsupportedRule;
import dev.gpugen.lint.rules.KubernetesDistributionRule;
import dev.gpugen.lint.rules.KubernetesNotConfiguredRule;
import dev.gpugen.lint.rules.KubernetesNotRenderedRule;
import dev.gpugen.lint.rules.KubernetesOperatorVersionRule;
import dev.gpugen.lint.rules.KubernetesSettingIgnoredRule;
import dev.gpugen.lint.rules.KubernetesVersionRule;
import dev.gpugen.lint.rules.LustreCapacityRule;
import dev.gpugen.lint.rules.LustreThroughputRule;
import dev.gpugen.lint.rules.MaxMapCountRule;
import dev.gpugen.lint.rules.NcclAlgoProtoForcedRule;
import dev.gpugen.lint.rules.NcclBuffsizeRule;
import dev.gpugen.lint.rules.NcclDebugVerboseRule;
import dev.gpugen.lint.rules.NcclGdrLevelIntegerRule;
import dev.gpugen.lint.rules.NcclGdrLevelInvalidRule;
import dev.gpugen.lint.rules.NcclIbDisabledRule;
import dev.gpugen.lint.rules.NcclIbHcaPrefixRule;
import dev.gpugen.lint.rules.NcclNetSocketRule;
import dev.gpugen.lint.rules.NcclNetUnknownRule;
import dev.gpugen.lint.rules.NcclP2pDisabledRule;
import dev.gpugen.lint.rules.NcclSocketIfnameRule;
import dev.gpugen.lint.rules.NcclSocketThreadsRule;
import dev.gpugen.lint.rules.NcclTestTooSmallRule;
import dev.gpugen.lint.rules.NcclValueInvalidRule;
import dev.gpugen.lint.rules.NetworkSourceRule;
import dev.gpugen.lint.rules.NewFeatureBranchRule;
import dev.gpugen.lint.rules.NouveauNotBlacklistedRule;
import dev.gpugen.lint.rules.NumaBalancingRule;
import dev.gpugen.lint.rules.OperatorGpuDriverFloorRule;
import dev.gpugen.lint.rules.PoolShapeRule;
import dev.gpugen.lint.rules.PullGitSourceRule;
import dev.gpugen.lint.rules.PullNeedsBucketRule;
import dev.gpugen.lint.rules.PullProviderRule;
import dev.gpugen.lint.rules.SecretInSpecRule;
import dev.gpugen.lint.rules.SingleGpuThresholdRule;
import dev.gpugen.lint.rules.SpotWithoutCheckpointsRule;
import dev.gpugen.lint.rules.SshOpenToWorldRule;
import dev.gpugen.lint.rules.SubnetOutsideVpcRule;
import dev.gpugen.lint.rules.ToolkitKnownIssueRule;
import dev.gpugen.lint.rules.ToolkitVulnerableRule;
import dev.gpugen.lint.rules.UnencryptedStorageRule;
import java.util.List;
import java.util.Optional;

/** Every rule gpugen runs, listed explicitly (no scanning): adding a rule is one line here. */
public final class Rules {
  private static final List<Rule> ALL =
      List.of(
          // spec structure and cloud facts
          new DuplicatePoolRule(),
          new PoolShapeRule(),
          new CloudLocationRule(),
          new NetworkSourceRule(),
          new CidrHostBitsRule(),
          new SubnetOutsideVpcRule(),
          new CompatUnknownRule(),
          new GkeGpuDirectRule(),
          // Kubernetes distribution and version
          new KubernetesNotConfiguredRule(),
          new KubernetesDistributionRule(),
          new KubernetesNotRenderedRule(),
          new KubernetesVersionRule(),
          new KubernetesOperatorVersionRule(),
          new KubernetesSettingIgnoredRule(),
          new EksPublicEndpointRule(),
          // driver, CUDA and GPU (§11 DRV)
          new CudaBelowCompatFloorRule(),
          new CudaNeedsNewerDriverRule(),
          new CudaUnknownReleaseRule(),
          new GpuNeedsNewerDriverRule(),
          new GpuNeedsNewerCudaRule(),
          new GpuSupportEndedRule(),
          new KernelModulesUnsupportedRule(),
          new BranchEndOfLifeRule(),
          new NewFeatureBranchRule(),
          new OperatorGpuDriverFloorRule(),
          new NouveauNotBlacklistedRule(),
          // container toolkit and GPU operator (§11 CTK, GOP)
          new ToolkitVulnerableRule(),
          new ToolkitKnownIssueRule(),
          new DriverKnownIssueRule(),
          // NCCL (§11 NCCL)
          new NcclIbDisabledRule(),
          new NcclNetSocketRule(),
          new NcclAlgoProtoForcedRule(),
          new NcclSocketThreadsRule(),
          new NcclGdrLevelInvalidRule(),
          new NcclGdrLevelIntegerRule(),
          new NcclValueInvalidRule(),
          new NcclP2pDisabledRule(),
          new NcclSocketIfnameRule(),
          new NcclIbHcaPrefixRule(),
          new NcclNetUnknownRule(),
          new NcclDebugVerboseRule(),
          new NcclBuffsizeRule(),
          // EFA and fabric (§11 EFA)
          new FabricNotOfferedRule(),
          new EfaUnsupportedInstanceRule(),
          new EfaNotUsedRule(),
          new EfaObsoleteVariableRule(),
          new EfaSocketTuningRule(),
          new EfaPlacementRule(),
          new EfaNeedsNewerCudaRule(),
          // AWS, FSx, GCP
          new SpotWithoutCheckpointsRule(),
          new PullProviderRule(),
          new PullNeedsBucketRule(),
          new PullGitSourceRule(),
          new LustreThroughputRule(),
          new LustreCapacityRule(),
          new GcpMachineTypeUnknownRule(),
          // validation and sysctl (§11 VAL, SYS)
          new NcclTestTooSmallRule(),
          new BusBandwidthThresholdRule(),
          new SingleGpuThresholdRule(),
          new NumaBalancingRule(),
          new MaxMapCountRule(),
          // security (reliability.md)
          new SshOpenToWorldRule(),
          new UnencryptedStorageRule(),
          new ImdsV1Rule(),
          new SecretInSpecRule(),
          // GitOps hand-off
          new GitOpsRepoCredentialsRule(),
          new GitOpsUnpinnedRevisionRule());

  private Rules() {}

  public static List<Rule> all() {
    return ALL;
  }

  public static Optional<Rule> byId(String id) {
    return ALL.stream().filter(r -> r.id().equals(id)).findFirst();
  }
}
