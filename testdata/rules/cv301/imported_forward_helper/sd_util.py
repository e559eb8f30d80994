def denoise(unet, images, noise):
    # Runs the (DDP-wrapped) network it is handed.
    return unet(images + noise)
