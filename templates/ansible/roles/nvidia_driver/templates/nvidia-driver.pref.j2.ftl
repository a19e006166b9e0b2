[=jinjaHeader]
# Managed by Ansible (gpugen role nvidia_driver): the NVIDIA driver stays at the version of the
# gpugen spec, whatever apt would upgrade to. To change it, change the spec and run
# upgrade-driver.yml, which drains the nodes a batch at a time.
Package: nvidia-* libnvidia-* cuda-drivers cuda-drivers-* xserver-xorg-video-nvidia-*
Pin: version {{ nvidia_driver_version }}-*
Pin-Priority: 1001
