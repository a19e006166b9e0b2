package dev.gpugen.compat;

import java.util.List;

/** One row of the compatibility table: unique by {@link #key()} within its kind, always sourced. */
public sealed interface CompatRow
    permits CudaRelease,
        MinorVersionCompat,
        DriverBranch,
        GpuModel,
        AwsInstanceType,
        GcpAccelerator,
        GcpMachineType,
        GpuOperatorRelease,
        ContainerToolkitRelease,
        DriverKnownIssue,
        AllReduceBandwidth,
        NcclFacts,
        LustreDeployment,
        CloudRegion,
        EfaDevicePluginChart,
        CapacityBlockTypes,
        Ec2VcpuQuota,
        GkeVersion {

  /** The row's key in {@code compat.yaml}, e.g. {@code p5.48xlarge} or {@code 12.8u1}. */
  String key();

  /** The URLs the row's values were copied from; never empty. */
  List<String> sources();
}
