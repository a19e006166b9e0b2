[=jinjaHeader]
# Managed by Ansible (gpugen role container_runtime): every package of the NVIDIA Container
# Toolkit stays at the version of the gpugen spec (since 1.18 they must match exactly).
Package: nvidia-container-toolkit nvidia-container-toolkit-base libnvidia-container-tools libnvidia-container1
Pin: version {{ container_runtime_toolkit_version }}-*
Pin-Priority: 1001
