print("hold")
